/// ISO 8601 durations as DASH writes them (`xs:duration`): `PT1H2M3.5S`, `P1DT12H`, `PT634.566S`.
enum ISO8601Duration {
    /// Seconds in `text`, or nil when it is not a duration this reads: years and months (of no fixed length) and
    /// negative durations are not.
    static func seconds(_ text: String) -> Double? {
        var rest = Substring(text.trimmingWhitespace())
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawComponent = false
        var lastUnitRank = -1
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isASCII && (character.isNumber || character == ".") {
                guard number.count < 30 else { return nil }
                number.append(character)
                continue
            }
            // A unit: the number before it counts in it; units come in decreasing order, once each.
            let (rank, scale): (Int, Double)
            switch (character, inTime) {
            case ("W", false): (rank, scale) = (0, 604_800)
            case ("D", false): (rank, scale) = (1, 86_400)
            case ("H", true): (rank, scale) = (2, 3_600)
            case ("M", true): (rank, scale) = (3, 60)
            case ("S", true): (rank, scale) = (4, 1)
            default: return nil
            }
            guard rank > lastUnitRank, let value = Double(number), number.filter({ $0 == "." }).count <= 1
            else { return nil }
            lastUnitRank = rank
            total += value * scale
            number = ""
            sawComponent = true
        }
        guard sawComponent, number.isEmpty, total.isFinite else { return nil }
        return total
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isXMLSpace($0) }),
            let last = scalars.lastIndex(where: { !isXMLSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

private func isXMLSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
}
