import Foundation

/// A served HLS master playlist read from its local copy: its variants in the order written (playctl's variant ids
/// are these indices) and each variant's segments with their durations and sizes, for `bench --abr` to weigh what a
/// play fetched against what it played.
struct LocalLadder: Sendable {
    /// One segment of a media playlist.
    struct Segment: Sendable {
        /// The path under the served folder, as nginx logs it without the leading slash.
        var path: String
        var duration: Double
        var bytes: Int64
    }
    /// One `#EXT-X-STREAM-INF` of the master.
    struct Variant: Sendable {
        /// The media playlist's path under the served folder.
        var playlist: String
        var playlistBytes: Int64
        var bandwidth: Int
        var resolution: String?
        var segments: [Segment]

        /// The bits of its segments over their duration.
        var averageBitsPerSecond: Double {
            let seconds = segments.reduce(0) { $0 + $1.duration }
            return seconds > 0 ? Double(segments.reduce(0) { $0 + $1.bytes }) * 8 / seconds : 0
        }
    }

    /// The master's path under the served folder (`ladder/hls-ts/master.m3u8`).
    var master: String
    var masterBytes: Int64
    var variants: [Variant]

    /// Segments per variant (the fewest any has).
    var segmentCount: Int { variants.map(\.segments.count).min() ?? 0 }

    /// Where segment `index` starts, in seconds from the start (the durations of the first variant before it).
    func start(ofSegment index: Int) -> Double {
        variants.first.map { $0.segments.prefix(index).reduce(0) { $0 + $1.duration } } ?? 0
    }

    /// Reads `master` (a path under `root`) and its media playlists.
    /// - Throws: `BenchFailure` naming the file when one is missing or has no segments.
    static func read(_ master: String, root: String) throws(BenchFailure) -> LocalLadder {
        let (masterText, masterBytes) = try text(root + "/" + master)
        let folder = (master as NSString).deletingLastPathComponent
        var variants: [Variant] = []
        var pending: (bandwidth: Int, resolution: String?)?
        for line in masterText.split(whereSeparator: \.isNewline).map(String.init) {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                let attributes = line.dropFirst("#EXT-X-STREAM-INF:".count)
                pending = (
                    Int(attribute("BANDWIDTH", in: attributes) ?? "") ?? 0, attribute("RESOLUTION", in: attributes)
                )
            } else if !line.hasPrefix("#"), !line.isEmpty, let stream = pending {
                let playlist = folder + "/" + line
                let (media, bytes) = try text(root + "/" + playlist)
                let mediaFolder = (playlist as NSString).deletingLastPathComponent
                var segments: [Segment] = []
                var duration = 0.0
                for entry in media.split(whereSeparator: \.isNewline) {
                    if entry.hasPrefix("#EXTINF:") {
                        duration = Double(entry.dropFirst(8).prefix { $0 != "," }) ?? 0
                    } else if !entry.hasPrefix("#"), !entry.isEmpty {
                        let path = mediaFolder + "/" + entry
                        segments.append(Segment(path: path, duration: duration, bytes: size(root + "/" + path)))
                    }
                }
                guard !segments.isEmpty else { throw .failed("\(root)/\(playlist): no segments") }
                variants.append(
                    Variant(
                        playlist: playlist, playlistBytes: bytes, bandwidth: stream.bandwidth,
                        resolution: stream.resolution, segments: segments))
                pending = nil
            }
        }
        guard !variants.isEmpty else { throw .failed("\(root)/\(master): no variants") }
        return LocalLadder(master: master, masterBytes: masterBytes, variants: variants)
    }

    /// The variant and segment index of a served path, when it is one of this ladder's segments.
    func segment(atPath path: String) -> (variant: Int, index: Int)? {
        for (variant, entry) in variants.enumerated() {
            if let index = entry.segments.firstIndex(where: { $0.path == path }) { return (variant, index) }
        }
        return nil
    }

    private static func attribute(_ name: String, in list: Substring) -> String? {
        for part in list.split(separator: ",") where part.hasPrefix(name + "=") {
            return String(part.dropFirst(name.count + 1))
        }
        return nil
    }

    private static func text(_ path: String) throws(BenchFailure) -> (String, Int64) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .failed("\(path) is missing (scripts/make-ladder-media.sh makes it)")
        }
        return (String(decoding: data, as: UTF8.self), Int64(data.count))
    }

    static func size(_ path: String) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
    }
}
