/// "Did you mean" suggestions for mistyped command and option names.
///
/// Distance is the optimal string alignment distance (Levenshtein plus adjacent transpositions), so `frmae` is one
/// edit from `frame`. A candidate is suggested when it is within a quarter of the longer word's length (at least
/// one edit, at most three), or when the input is a prefix of it of at least three characters (`metrics` for
/// `metrics-out`). Ties go to the candidate declared first.
public enum Suggestions {
    /// Inputs longer than this get no suggestion: nothing declared is that long, and it bounds the work.
    static let maximumInputLength = 64

    /// The candidate closest to `input`, or `nil` when none is close enough.
    public static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = Array(input)
        guard typed.count >= 2, typed.count <= maximumInputLength else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != input {
            let target = Array(candidate)
            guard target.count <= maximumInputLength else { continue }
            let distance = Self.distance(typed, target)
            let allowed = min(3, max(1, max(typed.count, target.count) / 4))
            let isPrefix = typed.count >= 3 && candidate.hasPrefix(input)
            guard distance <= allowed || isPrefix else { continue }
            // A prefix match ranks like an edit distance of `allowed`, so real near-misses still win.
            let rank = distance <= allowed ? distance : allowed
            if let best, best.distance <= rank { continue }
            best = (candidate, rank)
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between two character sequences.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the dynamic-programming table: two rows back (for transpositions), previous, current.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
