// Part of PlaybackTesting, where it imports Streaming, and compiled by scripts/fuzz.sh into the fuzzer's own module
// together with Sources/Streaming/Model and Sources/Streaming/Manifest (on MediaCore), where there is no Streaming
// module to import.
import MediaCore

#if canImport(Streaming)
import Streaming
#endif

/// One fuzz case over the adaptive-streaming manifest parsers, run by the libFuzzer entry
/// (Fuzz/Manifest/FuzzManifest.swift) and, on the committed corpus (Fuzz/corpus/manifest), by the Streaming tests'
/// `ManifestFuzzCorpusTests`. The input's first byte picks the parser (``Parser``), the rest is what it reads, found
/// at a remote URL (``url(for:)``). Whatever the bytes, the parser either throws a `MediaError` of kind
/// `.malformedManifest` or `.refusedByPolicy` naming that URL and a reason, or returns a model whose invariants hold:
/// durations finite and non-negative, byte ranges non-negative and within `Int64`, every URI http(s) with a host,
/// variants present and lowest bandwidth first, counts bounded by the input's size.
public enum ManifestFuzzCase {
    /// Which parser reads the input, chosen by its first byte (modulo the number of cases).
    public enum Parser: UInt8, CaseIterable, Sendable {
        /// `HLSPlaylistParser.parsePresentation`: a master playlist, or a media playlist as one variant.
        case hlsPresentation = 0
        /// `HLSPlaylistParser.parse`: a media playlist's segments (or a master playlist).
        case hlsPlaylist = 1
        /// `DASHManifestParser.parse` on the bytes.
        case dash = 2
        /// `SegmentIndexParser.parse` on the bytes: a `sidx` box.
        case segmentIndex = 3

        /// The parser an input starting with `byte` goes to.
        public init(selector byte: UInt8) {
            self = Parser(rawValue: byte % UInt8(Parser.allCases.count)) ?? .hlsPresentation
        }
    }

    /// The remote URL the input is found at: a manifest's or, for a `sidx`, its file's.
    public static func url(for parser: Parser) -> String {
        switch parser {
        case .hlsPresentation, .hlsPlaylist: return "https://example.com/a/b.m3u8"
        case .dash: return "https://example.com/a/b.mpd"
        case .segmentIndex: return "https://example.com/a/b.mp4"
        }
    }

    /// What one input did: the parser it went to, the error it threw (nil when it returned a model), and the
    /// promises it broke, each in a sentence.
    public struct Outcome: Sendable {
        public var parser: Parser?
        public var error: MediaError?
        public var brokenPromises: [String]
    }

    /// Checks `input` (its first byte the selector); traps on the first promise broken (for libFuzzer; `fatalError`
    /// keeps its message in an optimized build).
    public static func run(_ input: [UInt8]) {
        if let broken = check(input).brokenPromises.first {
            fatalError("manifest parser promise broken: \(broken)")
        }
    }

    /// Parses `input` (its first byte the selector) and checks the outcome (an empty input is nothing to parse).
    public static func check(_ input: [UInt8]) -> Outcome {
        guard let selector = input.first else { return Outcome(parser: nil, error: nil, brokenPromises: []) }
        let parser = Parser(selector: selector)
        let bytes = Array(input.dropFirst())
        // HLS lists a segment a line; DASH may imply up to its maximum from a few.
        let segmentLimit = parser == .dash ? DASHManifestParser.maximumSegments : bytes.count
        var check = ManifestPromises(url: url(for: parser), inputSize: bytes.count, segmentLimit: segmentLimit)
        do {
            switch parser {
            case .hlsPresentation:
                let text = String(decoding: bytes, as: UTF8.self)
                check.presentation(try HLSPlaylistParser.parsePresentation(text, url: check.url), format: .hls)
            case .hlsPlaylist:
                let text = String(decoding: bytes, as: UTF8.self)
                switch try HLSPlaylistParser.parse(text, url: check.url) {
                case .master(let presentation): check.presentation(presentation, format: .hls)
                case .media(let playlist): check.playlist(playlist, "the media playlist", contiguous: true)
                }
            case .dash:
                check.presentation(try DASHManifestParser.parse(bytes, url: check.url), format: .dash)
            case .segmentIndex:
                let segments = try SegmentIndexParser.parse(bytes, boxEnd: Int64(bytes.count), url: check.url)
                // Each reference is 12 bytes of the box.
                check.that(
                    segments.count <= bytes.count / 12, "\(segments.count) sidx segments in \(bytes.count) bytes")
                check.segments(segments, "the sidx", contiguous: true)
            }
        } catch {
            check.error(error)
            return Outcome(parser: parser, error: error, brokenPromises: check.messages)
        }
        return Outcome(parser: parser, error: nil, brokenPromises: check.messages)
    }
}

/// The promises of one outcome, and those it broke so far.
struct ManifestPromises {
    let url: String
    let inputSize: Int
    /// The most segments the whole outcome may list.
    let segmentLimit: Int
    private(set) var messages: [String] = []
    private var segmentCount = 0

    init(url: String, inputSize: Int, segmentLimit: Int) {
        self.url = url
        self.inputSize = inputSize
        self.segmentLimit = segmentLimit
    }

    mutating func that(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { messages.append(message()) }
    }

    /// A refusal: typed, naming the manifest's URL and why.
    mutating func error(_ error: MediaError) {
        that(
            error.kind == .malformedManifest || error.kind == .refusedByPolicy,
            "an error of kind \(error.kind) (not malformedManifest or refusedByPolicy): \(error)")
        that(error.url == url, "an error naming '\(error.url)', not the manifest's URL: \(error)")
        that(!error.reason.isEmpty, "an error without a reason: \(error)")
    }

    mutating func presentation(_ presentation: Presentation, format: Presentation.Format) {
        that(presentation.format == format, "a \(presentation.format) presentation from the \(format) parser")
        that(presentation.url == url, "the presentation's URL is '\(presentation.url)'")
        that(!presentation.variants.isEmpty, "a presentation without variants")
        // Each variant or rendition takes at least a line of the manifest.
        let count = presentation.variants.count + presentation.renditions.count
        let size = inputSize
        that(count <= size, "\(count) variants and renditions from \(size) bytes")
        let bandwidths = presentation.variants.map(\.bandwidth)
        that(bandwidths == bandwidths.sorted(), "variants not lowest bandwidth first: \(bandwidths)")
        for variant in presentation.variants {
            let name = "variant '\(variant.id)'"
            that(variant.bandwidth >= 0, "\(name) has bandwidth \(variant.bandwidth)")
            if let average = variant.averageBandwidth { that(average >= 0, "\(name) has average bandwidth \(average)") }
            if let resolution = variant.resolution {
                that(resolution.width >= 0 && resolution.height >= 0, "\(name) has resolution \(resolution)")
            }
            if let rate = variant.frameRate {
                that(rate.isFinite && rate >= 0, "\(name) has frame rate \(rate)")
            }
            media(variant.media, name, contiguous: format == .hls)
        }
        for rendition in presentation.renditions {
            if let reference = rendition.media {
                media(reference, "rendition '\(rendition.name)'", contiguous: format == .hls)
            }
        }
    }

    /// Where a variant's or rendition's segments are; `contiguous` when each segment must start where the one before
    /// it ended (HLS; DASH lists segments at times of their own: SegmentTimeline, presentationTimeOffset).
    mutating func media(_ reference: MediaReference, _ name: String, contiguous: Bool) {
        switch reference {
        case .playlist(let address):
            remote(address, "\(name)'s playlist")
        case .segments(let list):
            playlist(list, name, contiguous: contiguous)
        case .indexed(let address, let initialization, let index):
            remote(address, "\(name)'s file")
            range(initialization, "\(name)'s initialization")
            range(index, "\(name)'s index")
        }
    }

    mutating func playlist(_ playlist: MediaPlaylist, _ name: String, contiguous: Bool) {
        that(
            playlist.targetDuration.isFinite && playlist.targetDuration >= 0,
            "\(name) has target duration \(playlist.targetDuration)")
        that(playlist.hasEnd == (playlist.kind == .vod), "\(name) is \(playlist.kind) with hasEnd \(playlist.hasEnd)")
        segmentCount += playlist.segments.count
        let (total, limit) = (segmentCount, segmentLimit)
        that(total <= limit, "\(total) segments up to \(name), more than \(limit)")
        segments(playlist.segments, name, contiguous: contiguous)
        for (index, segment) in playlist.segments.enumerated() {
            let (sequence, overflow) = playlist.mediaSequence.addingReportingOverflow(index)
            that(
                !overflow && segment.sequence == sequence, "\(name): segment \(index) has sequence \(segment.sequence)")
        }
    }

    /// Segments with finite durations and starts, their ranges and URIs valid; when `contiguous`, each starts where
    /// the one before it ended.
    mutating func segments(_ segments: [Segment], _ name: String, contiguous: Bool) {
        var end = 0.0
        for (index, segment) in segments.enumerated() {
            let label = "\(name): segment \(index)"
            that(segment.duration.isFinite && segment.duration >= 0, "\(label) has duration \(segment.duration)")
            that(segment.start.isFinite, "\(label) starts at \(segment.start)")
            if contiguous { that(segment.start == end, "\(label) starts at \(segment.start), not \(end)") }
            end = segment.start + segment.duration
            remote(segment.url, label)
            if let byteRange = segment.byteRange { range(byteRange, "\(label)'s range") }
            if let initialization = segment.initialization {
                remote(initialization.url, "\(label)'s initialization")
                if let byteRange = initialization.byteRange { range(byteRange, "\(label)'s initialization range") }
            }
            if let key = segment.key {
                remote(key.url, "\(label)'s key")
                that(key.iv.map { $0.count == 16 } ?? true, "\(label)'s IV is \(key.iv?.count ?? 0) bytes")
            }
            // Limit the checks of a long list (a DASH template implies up to a million): cheap per input.
            if index >= 2_000 { break }
        }
    }

    /// A URI resolved from a remote manifest: http(s) only (ManifestURI's policy).
    mutating func remote(_ address: String, _ name: String) {
        that(ManifestURI.isRemote(address), "\(name) is not an http(s) URI: '\(address)'")
    }

    mutating func range(_ range: ByteRange, _ name: String) {
        let (_, overflow) = range.offset.addingReportingOverflow(range.length)
        that(range.offset >= 0 && range.length >= 0 && !overflow, "\(name) is \(range.offset)+\(range.length)")
    }
}
