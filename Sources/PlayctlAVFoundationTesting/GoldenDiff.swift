/// A line diff: the longest common subsequence, differences shown with three lines of context.
enum GoldenDiff {
    static func render(golden: String, actual: String) -> String {
        let old = golden.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [(mark: Character, text: String)] = []
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append((" ", old[i]))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                lines.append(("+", new[j]))
                j += 1
            } else {
                lines.append(("-", old[i]))
                i += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        var shown: [String] = []
        var last = -1
        for index in lines.indices where changed.contains(where: { abs($0 - index) <= 3 }) {
            if last >= 0, index > last + 1 { shown.append("  ...") }
            shown.append("\(lines[index].mark) \(lines[index].text)")
            last = index
        }
        return shown.joined(separator: "\n")
    }
}
