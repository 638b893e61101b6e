import Foundation
import MediaCore

/// Reads static DASH MPDs (ISO/IEC 23009-1) into a ``Presentation``: a pure function from bytes to the model, with
/// libxml2 parsing the XML (no network, no DTD, no entity substitution).
///
/// Only the **first Period** is read (multi-period MPDs, ad insertion, are not played past it). Video adaptation
/// sets give the variants (one per Representation, lowest bandwidth first); audio adaptation sets give `.audio`
/// renditions of group `"audio"` and text ones `.subtitles` renditions of group `"subtitles"` (one per
/// Representation), which every variant names. An MPD without video makes its audio Representations the variants.
/// BaseURLs of the MPD, Period, AdaptationSet and Representation are resolved in that order with
/// ``ManifestURI/resolve(_:against:)`` (a remote MPD may name only http(s) URIs).
///
/// A live MPD (`type="dynamic"`) of one Period gives live playlists (no end): a `SegmentTemplate@duration` lists the
/// segments complete by the wall clock `now` within `timeShiftBufferDepth` (``DASHLiveTiming``), a
/// `SegmentTimeline` those it lists; each segment is dated (`availabilityStartTime` + `Period@start` + its time),
/// `suggestedPresentationDelay` is the default distance from the live edge and `minimumUpdatePeriod` paces the
/// reloads of a timeline. Several Periods, `SegmentList` and `SegmentBase` in a live MPD are refused.
public enum DASHManifestParser {
    /// The most segments one MPD may list or imply, over all its Representations: 100,000 (four Representations of
    /// 2 s segments for 14 hours; parsed in 1.3 s by a debug build). A few hundred bytes of template can imply
    /// millions (a million took 6 s and 280 MB in a release build, the fuzzer found).
    public static let maximumSegments = 100_000

    /// Parses the MPD `text` found at `url`; a dynamic MPD's segments are those available at `now` (seconds since
    /// 1970).
    public static func parse(
        _ text: String, url: String, now: Double = Date().timeIntervalSince1970
    ) throws(MediaError) -> Presentation {
        try parse(Array(text.utf8), url: url, now: now)
    }

    /// Parses the MPD in `data` found at `url`; a dynamic MPD's segments are those available at `now` (seconds since
    /// 1970).
    public static func parse(
        _ data: [UInt8], url: String, now: Double = Date().timeIntervalSince1970
    ) throws(MediaError) -> Presentation {
        let root = try XMLTreeElement.parse(data, url: url)
        guard root.name == "MPD" else { throw malformed(url, "the root element is <\(root.name)>, not <MPD>") }
        guard let period = root.child("Period") else { throw malformed(url, "MPD without a Period") }
        var live: DASHLiveTiming?
        switch root["type"] ?? "static" {
        case "static": break
        case "dynamic":
            guard root.children("Period").count == 1 else {
                throw MediaError(
                    .refusedByPolicy, url: url, operation: .open,
                    reason: "live DASH (type=dynamic) of several Periods is not supported")
            }
            live = try DASHLiveTiming.read(root, period: period, now: now, url: url)
        case let other: throw malformed(url, "MPD@type is neither static nor dynamic: '\(other)'")
        }
        let total = try duration(root["mediaPresentationDuration"], "MPD@mediaPresentationDuration", url: url)
        let periodStart = try duration(period["start"], "Period@start", url: url) ?? 0
        var periodDuration = try duration(period["duration"], "Period@duration", url: url)
        if periodDuration == nil, let total, total > periodStart { periodDuration = total - periodStart }

        let periodBase = try baseURL(of: period, against: baseURL(of: root, against: url, in: url), in: url)
        var budget = maximumSegments
        var video: [Variant] = []
        var audio: [Rendition] = []
        var audioLadder: [Variant] = []
        var text: [Rendition] = []
        for set in period.children("AdaptationSet") {
            let setBase = try baseURL(of: set, against: periodBase, in: url)
            let kind = contentKind(of: set)
            guard kind != nil else { continue }
            for representation in set.children("Representation") {
                let id = representation["id"] ?? ""
                guard let bandwidth = Int(representation["bandwidth"]?.trimmingWhitespace() ?? ""), bandwidth >= 0
                else { throw malformed(url, "Representation '\(id)' without a valid @bandwidth") }
                var addressing = DASHSegmentAddressing(
                    url: url, base: try baseURL(of: representation, against: setBase, in: url),
                    values: .init(representationID: id, bandwidth: bandwidth), periodDuration: periodDuration,
                    budget: budget, live: live)
                let media = try addressing.media(levels: [period, set, representation])
                budget = addressing.budget
                switch kind {
                case .video?:
                    video.append(try variant(representation, of: set, bandwidth: bandwidth, media: media, url: url))
                case .audio?:
                    var rendition = rendition(.audio, representation, of: set, media: media)
                    rendition.bandwidth = bandwidth
                    audio.append(rendition)
                    audioLadder.append(
                        try variant(representation, of: set, bandwidth: bandwidth, media: media, url: url))
                case .text?: text.append(rendition(.subtitles, representation, of: set, media: media))
                case nil: break
                }
            }
        }
        var variants = video
        if variants.isEmpty {
            // Audio only: its Representations are the ladder.
            variants = audioLadder
            audio = []
        }
        guard !variants.isEmpty else { throw malformed(url, "MPD without video or audio Representations") }
        for index in variants.indices {
            variants[index].audioGroup = audio.isEmpty ? nil : "audio"
            variants[index].subtitlesGroup = text.isEmpty ? nil : "subtitles"
        }
        variants.sort { ($0.bandwidth, $0.id) < ($1.bandwidth, $1.id) }
        return Presentation(
            format: .dash, url: url, variants: variants, renditions: audio + text, independentSegments: true)
    }

    // MARK: - Elements

    private enum ContentKind { case video, audio, text }

    /// What an AdaptationSet carries: by `@contentType`, else by the `@mimeType` of the set or its first
    /// Representation; nil for what is not played (images).
    private static func contentKind(of set: XMLTreeElement) -> ContentKind? {
        let mimeType = set["mimeType"] ?? set.child("Representation")?["mimeType"] ?? ""
        let codecs = set["codecs"] ?? set.child("Representation")?["codecs"] ?? ""
        let type = set["contentType"] ?? String(mimeType.prefix { $0 != "/" })
        switch type {
        case "video": return .video
        case "audio": return .audio
        case "text": return .text
        case "application" where mimeType.contains("ttml") || codecs.hasPrefix("stpp") || codecs.hasPrefix("wvtt"):
            return .text
        default: return nil
        }
    }

    private static func variant(
        _ representation: XMLTreeElement, of set: XMLTreeElement, bandwidth: Int, media: MediaReference, url: String
    ) throws(MediaError) -> Variant {
        var resolution: Resolution?
        if let width = representation["width"] ?? set["width"], let height = representation["height"] ?? set["height"] {
            resolution = Resolution(
                width: Int(try DASHSegmentTemplate.number(width, "@width", url: url)),
                height: Int(try DASHSegmentTemplate.number(height, "@height", url: url)))
        }
        return Variant(
            id: representation["id"] ?? "", bandwidth: bandwidth, resolution: resolution,
            codecs: representation["codecs"] ?? set["codecs"],
            frameRate: try frameRate(representation["frameRate"] ?? set["frameRate"], url: url), media: media)
    }

    private static func rendition(
        _ kind: Rendition.Kind, _ representation: XMLTreeElement, of set: XMLTreeElement, media: MediaReference
    ) -> Rendition {
        let language = representation["lang"] ?? set["lang"]
        let label = set.child("Label")?.text.trimmingWhitespace() ?? set["label"]
        let isMain = set.children("Role").contains { $0["value"] == "main" }
        return Rendition(
            kind: kind, groupID: kind == .audio ? "audio" : "subtitles",
            name: label ?? language ?? representation["id"] ?? "", language: language, isDefault: isMain,
            isAutoselect: true, media: media)
    }

    /// `@frameRate`: `30`, `29.97` or `30000/1001`.
    private static func frameRate(_ text: String?, url: String) throws(MediaError) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let numerator = Double(parts[0]), numerator.isFinite, numerator >= 0,
            let denominator = parts.count == 2 ? Double(parts[1]) : 1, denominator.isFinite, denominator > 0,
            (numerator / denominator).isFinite  // `1e300/1e-300`
        else { throw malformed(url, "@frameRate is not a frame rate: '\(text)'") }
        return numerator / denominator
    }

    /// The element's first BaseURL resolved against `base` in the MPD at `url`, or `base` when it has none.
    private static func baseURL(
        of element: XMLTreeElement, against base: String, in url: String
    ) throws(MediaError) -> String {
        guard let text = element.child("BaseURL")?.text.trimmingWhitespace(), !text.isEmpty else { return base }
        return try ManifestURI.resolve(text, against: base, in: url)
    }

    private static func duration(_ text: String?, _ name: String, url: String) throws(MediaError) -> Double? {
        guard let text else { return nil }
        guard let seconds = ISO8601Duration.seconds(text) else {
            throw malformed(url, "\(name) is not an ISO 8601 duration: '\(text)'")
        }
        return seconds
    }

    static func malformed(_ url: String, _ reason: String) -> MediaError {
        MediaError(.malformedManifest, url: url, operation: .probe, reason: reason)
    }
}
