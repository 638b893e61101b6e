import MediaCore

/// DASH `SegmentTemplate` strings and `SegmentTimeline`s (ISO/IEC 23009-1 §5.3.9.4, §5.3.9.6).
enum DASHSegmentTemplate {
    /// The values a template's identifiers stand for.
    struct Values {
        var representationID: String
        var bandwidth: Int
        var number: Int?
        var time: Int64?
    }

    /// `template` with `$RepresentationID$`, `$Number$`, `$Time$`, `$Bandwidth$` (the last three with an optional
    /// `%0<width>d`) replaced and `$$` as a dollar sign.
    static func expand(_ template: String, _ values: Values, url: String) throws(MediaError) -> String {
        var result = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                throw DASHManifestParser.malformed(url, "unterminated identifier in template '\(template)'")
            }
            let identifier = rest[afterDollar..<close]
            rest = rest[rest.index(after: close)...]
            if identifier.isEmpty {
                result += "$"
                continue
            }
            let parts = identifier.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
            let width = try parts.count == 2 ? formatWidth(parts[1], template: template, url: url) : 0
            let value: String
            switch parts[0] {
            case "RepresentationID" where parts.count == 1: value = values.representationID
            case "Bandwidth": value = String(values.bandwidth)
            case "Number":
                guard let number = values.number else {
                    throw DASHManifestParser.malformed(url, "$Number$ where no segment is meant: '\(template)'")
                }
                value = String(number)
            case "Time":
                guard let time = values.time else {
                    throw DASHManifestParser.malformed(url, "$Time$ where no segment is meant: '\(template)'")
                }
                value = String(time)
            default:
                throw DASHManifestParser.malformed(url, "unknown template identifier $\(identifier)$")
            }
            result += String(repeating: "0", count: max(0, width - value.count)) + value
        }
        return result + rest
    }

    /// The width of a `%0<width>d` format tag.
    private static func formatWidth(_ format: Substring, template: String, url: String) throws(MediaError) -> Int {
        guard format.hasPrefix("0"), format.hasSuffix("d"), format.count >= 3,
            let width = Int(format.dropFirst().dropLast()), width <= 32
        else { throw DASHManifestParser.malformed(url, "unsupported format tag %\(format) in '\(template)'") }
        return width
    }

    /// One segment of a timeline: its start and duration in timescale units.
    struct Entry: Equatable {
        var time: Int64
        var duration: Int64
    }

    /// The segments a `SegmentTimeline` lists: each `S` is `d` long from `t` (or where the previous ended), repeated
    /// `r` more times; `r="-1"` repeats until the next `S@t` or `end` (in timescale units, the period's end).
    /// At most `limit` entries.
    static func timeline(
        _ timeline: XMLTreeElement, end: Int64?, limit: Int, url: String
    ) throws(MediaError) -> [Entry] {
        let entries = timeline.children("S")
        var result: [Entry] = []
        var time: Int64 = 0
        for (index, element) in entries.enumerated() {
            if let t = element["t"] { time = try number(t, "S@t", url: url) }
            let duration = try number(element["d"], "S@d", url: url)
            guard duration > 0 else { throw DASHManifestParser.malformed(url, "S@d is not positive") }
            let repeatText = element["r"] ?? "0"
            var count: Int64
            if repeatText == "-1" {
                var stop = end
                if index + 1 < entries.count, let next = entries[index + 1]["t"] {
                    stop = try number(next, "S@t", url: url)
                }
                guard let stop else {
                    throw DASHManifestParser.malformed(url, "S@r=-1 with no next S@t and no period duration")
                }
                count = stop > time ? (stop - time + duration - 1) / duration : 0
            } else {
                count = try number(repeatText, "S@r", url: url) + 1
            }
            guard count <= Int64(limit - result.count) else {
                throw DASHManifestParser.malformed(url, "a SegmentTimeline of more than \(limit) segments")
            }
            for _ in 0..<count {
                result.append(Entry(time: time, duration: duration))
                let (next, overflow) = time.addingReportingOverflow(duration)
                guard !overflow else { throw DASHManifestParser.malformed(url, "SegmentTimeline times overflow") }
                time = next
            }
        }
        return result
    }

    /// A non-negative integer attribute.
    static func number(_ text: String?, _ name: String, url: String) throws(MediaError) -> Int64 {
        guard let text else { throw DASHManifestParser.malformed(url, "missing \(name)") }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 18, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(trimmed)
        else { throw DASHManifestParser.malformed(url, "\(name) is not a non-negative integer: '\(text)'") }
        return value
    }
}
