import MediaCore

/// A live MPD's `UTCTiming` element (ISO/IEC 23009-1 §5.8.4.11; DASH-IF IOP §4.7): where a client reads the clock the
/// origin dates its segments by. A live MPD's segments become available at times of that clock
/// (`availabilityStartTime` plus their end), so a client whose own clock is ahead asks for segments not written yet
/// (404) and one behind starts far from the edge. dash.js and Media3 read the first element whose scheme they know, in
/// the MPD's order of preference.
public struct DASHUTCTiming: Sendable, Equatable {
    /// How the element's value gives the time.
    public enum Scheme: Sendable, Equatable {
        /// `urn:mpeg:dash:utc:direct:2014`: the value is the time itself (an `xs:dateTime`), as the MPD was made.
        case direct
        /// `urn:mpeg:dash:utc:http-iso:2014` and `http-xsdate:2014`: the value is a URL whose body is the time (ISO
        /// 8601 / `xs:dateTime`).
        case httpDate
        /// Another scheme (`http-head`, `http-ntp`, `ntp`, `sntp`, ...): not read.
        case unsupported(String)
    }

    public var scheme: Scheme
    public var value: String

    public init(scheme: Scheme, value: String) {
        self.scheme = scheme
        self.value = value
    }

    /// The scheme named `uri` (the 2012 URIs of the first edition read as the 2014 ones).
    static func scheme(_ uri: String) -> Scheme {
        switch uri.trimmingWhitespace() {
        case "urn:mpeg:dash:utc:direct:2014", "urn:mpeg:dash:utc:direct:2012": return .direct
        case "urn:mpeg:dash:utc:http-iso:2014", "urn:mpeg:dash:utc:http-iso:2012",
            "urn:mpeg:dash:utc:http-xsdate:2014", "urn:mpeg:dash:utc:http-xsdate:2012":
            return .httpDate
        case let other: return .unsupported(other)
        }
    }
}

extension DASHManifestParser {
    /// The `UTCTiming` elements of a dynamic MPD in `data`, in the MPD's order; none for a static MPD or bytes that
    /// are not an MPD (the presentation's own parse reports those).
    public static func utcTimings(_ data: [UInt8], url: String) -> [DASHUTCTiming] {
        guard let root = try? XMLTreeElement.parse(data, url: url), root.name == "MPD", root["type"] == "dynamic"
        else { return [] }
        return root.children("UTCTiming").compactMap { element in
            guard let uri = element["schemeIdUri"] else { return nil }
            return DASHUTCTiming(scheme: DASHUTCTiming.scheme(uri), value: element["value"] ?? "")
        }
    }
}
