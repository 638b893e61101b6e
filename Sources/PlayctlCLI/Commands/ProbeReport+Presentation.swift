import PlayctlOutput
import Streaming

/// The variants and renditions of an HLS or DASH presentation in `probe`'s report.
extension ProbeReport {
    /// A variant as JSON: `id`, `bandwidth` (peak bits per second; 0 when the manifest does not say),
    /// `averageBandwidth`, `resolution` (`"640x360"`), `codecs` and `frameRate`, each null when not given.
    static func json(for variant: Variant) -> JSONValue {
        .object([
            ("id", .string(variant.id)),
            ("bandwidth", .int(variant.bandwidth)),
            ("averageBandwidth", variant.averageBandwidth.map(JSONValue.int) ?? .null),
            ("resolution", variant.resolution.map { .string($0.description) } ?? .null),
            ("codecs", variant.codecs.map(JSONValue.string) ?? .null),
            ("frameRate", variant.frameRate.map(JSONValue.double) ?? .null),
        ])
    }

    /// A rendition as JSON: `type` (`audio`, `subtitles`, `closedCaptions`), `group`, `name`, `language` (null
    /// when not given), `default`, `autoselect` and `forced`.
    static func json(for rendition: Rendition) -> JSONValue {
        .object([
            ("type", .string(rendition.kind.rawValue)),
            ("group", .string(rendition.groupID)),
            ("name", .string(rendition.name)),
            ("language", rendition.language.map(JSONValue.string) ?? .null),
            ("default", .bool(rendition.isDefault)),
            ("autoselect", .bool(rendition.isAutoselect)),
            ("forced", .bool(rendition.isForced)),
        ])
    }

    /// The text rows of the presentation: a `Variant <id>:` row per variant (resolution, bit rates, codecs, frame
    /// rate), then a `Rendition <n>:` row per rendition; none for other media.
    var presentationRows: [(String, String)] {
        guard let presentation else { return [] }
        var rows = presentation.variants.map { variant in
            var parts: [String] = []
            if let resolution = variant.resolution { parts.append(resolution.description) }
            parts.append(variant.bandwidth > 0 ? "peak \(variant.bandwidth) bit/s" : "peak bit rate unknown")
            if let average = variant.averageBandwidth { parts.append("average \(average) bit/s") }
            if let codecs = variant.codecs { parts.append("codecs \(codecs)") }
            if let rate = variant.frameRate { parts.append(DecimalText.format(rate) + " fps") }
            return ("Variant \(variant.id):", parts.joined(separator: ", "))
        }
        for (number, rendition) in presentation.renditions.enumerated() {
            var parts = ["\(rendition.kind.rawValue) group \"\(rendition.groupID)\" \"\(rendition.name)\""]
            if let language = rendition.language { parts.append("language \(language)") }
            if rendition.isDefault { parts.append("default") }
            if rendition.isForced { parts.append("forced") }
            rows.append(("Rendition \(number + 1):", parts.joined(separator: ", ")))
        }
        return rows
    }
}
