import Foundation
import Streaming

extension LocalLadder {
    /// Reads the static MPD `manifest` (a path under `root`) with the engine's own parser: its video Representations
    /// in bandwidth order are the variants (playctl's variant ids are their `@id`s, which the ladder's script numbers
    /// 0-3 in that order), each with its `$Number$` segments and their sizes on disk. A DASH ladder has no media
    /// playlists: each variant's `playlistBytes` is 0, and the MPD is the master.
    /// - Throws: `BenchFailure` naming the file when it is missing, does not parse, or a variant has no segments.
    static func readDASH(_ manifest: String, root: String) throws(BenchFailure) -> LocalLadder {
        let path = root + "/" + manifest
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .failed("\(path) is missing (scripts/make-ladder-media.sh makes it)")
        }
        // Parsed as served: the segments' URLs are then the paths nginx logs, after the origin.
        let origin = "http://ladder.invalid/"
        let presentation: Presentation
        do {
            presentation = try DASHManifestParser.parse(Array(data), url: origin + manifest)
        } catch {
            throw .failed("\(path): \(error)")
        }
        var variants: [Variant] = []
        for variant in presentation.variants {
            guard case .segments(let playlist) = variant.media, !playlist.segments.isEmpty else {
                throw .failed("\(path): Representation \(variant.id) lists no $Number$ segments")
            }
            let segments = playlist.segments.map { segment in
                let served = String(segment.url.dropFirst(origin.count))
                return Segment(path: served, duration: segment.duration, bytes: size(root + "/" + served))
            }
            variants.append(
                Variant(
                    playlist: manifest, playlistBytes: 0, bandwidth: variant.bandwidth,
                    resolution: variant.resolution.map { "\($0.width)x\($0.height)" }, segments: segments))
        }
        guard !variants.isEmpty else { throw .failed("\(path): no video Representations") }
        return LocalLadder(master: manifest, masterBytes: Int64(data.count), variants: variants)
    }
}
