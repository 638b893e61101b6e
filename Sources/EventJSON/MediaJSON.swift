import MediaCore
import PlayctlOutput
import Streaming

/// Fields the event vocabularies share: times as seconds and an HLS or DASH variant switch.
public enum MediaJSON {
    /// `time` in seconds; null when it is not a number (unknown, infinite).
    public static func seconds(_ time: MediaTime?) -> JSONValue {
        guard let time, time.isNumeric else { return .null }
        return .double(time.seconds)
    }

    /// A variant switch's fields: `from` and `to` (`{"id", "bandwidth", "resolution"}`), `at`, `segment`, `reason`
    /// and `estimate`.
    public static func variantFields(_ change: VariantSwitch) -> [(String, JSONValue)] {
        func variant(_ variant: Variant) -> JSONValue {
            .object([
                ("id", .string(variant.id)), ("bandwidth", .int(variant.bandwidth)),
                ("resolution", variant.resolution.map { .string($0.description) } ?? .null),
            ])
        }
        return [
            ("from", change.from.map(variant) ?? .null), ("to", variant(change.to)), ("at", .double(change.seconds)),
            ("segment", .int(change.segmentIndex)), ("reason", .string(change.reason)),
            ("estimate", change.estimate.map { .double($0.rounded()) } ?? .null),
        ]
    }
}
