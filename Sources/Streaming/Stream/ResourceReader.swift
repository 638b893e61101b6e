import Loading
import MediaCore

/// Whole small resources (playlists, manifests, keys, segment indexes) read through `Loading`: its byte cache, its
/// link priority and its typed errors. Blocking: call on a thread of your own (an item's loader thread).
enum ResourceReader {
    /// The bytes of `url` (or of `range` of it), at most `limit` of them.
    /// - Throws: the loader's `MediaError` (host, status, timeout, ...); `.malformedManifest` when the resource is
    ///   larger than `limit` (a manifest is text of a few kilobytes; a server sending megabytes is not one).
    static func bytes(
        _ url: String, range: ByteRange? = nil, limit: Int = 4 << 20, loading: RemoteLoading
    ) throws(MediaError) -> [UInt8] {
        let source = loading.source(url, priority: .playback, readAhead: Int64(limit))
        defer { source.close() }
        if let range {
            try source.seek(to: range.offset)
            source.setFetchLimit(range.end)
        }
        let wanted = range.map { Int($0.length) } ?? limit + 1
        var bytes = [UInt8](repeating: 0, count: min(wanted, 64 << 10))
        var count = 0
        while count < wanted {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, wanted - count))) }
            let n = try bytes.withUnsafeMutableBytes { buffer throws(MediaError) in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<min(buffer.count, wanted)]))
            }
            if n == 0 { break }
            count += n
        }
        if range == nil && count > limit {
            throw MediaError(
                .malformedManifest, url: url, operation: .read,
                reason: "larger than \(limit) bytes: not a playlist or manifest")
        }
        if let range, count < range.length {
            throw MediaError(
                .truncated, url: url, operation: .read,
                reason: "bytes \(range.offset)-\(range.end - 1) asked, the resource ends after \(count)")
        }
        return Array(bytes[..<count])
    }

    /// The text of `url` (UTF-8; invalid bytes are replaced).
    static func text(_ url: String, loading: RemoteLoading) throws(MediaError) -> String {
        String(decoding: try bytes(url, loading: loading), as: UTF8.self)
    }
}
