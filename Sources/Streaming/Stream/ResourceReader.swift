import Loading
import MediaCore

/// Whole small resources (playlists, manifests, keys, segment indexes) read through `Loading`: its byte cache, its
/// link priority and its typed errors. Blocking: call on a thread of your own (an item's loader thread).
public enum ResourceReader {
    /// The bytes of `url` (or of `range` of it), at most `limit` of them; `opened` is called with the source read
    /// before any read.
    /// - Throws: the loader's `MediaError` (host, status, timeout, ...); `.malformedManifest` when the resource is
    ///   larger than `limit` (a manifest is text of a few kilobytes; a server sending megabytes is not one).
    public static func bytes(
        _ url: String, range: ByteRange? = nil, limit: Int = 4 << 20, loading: RemoteLoading,
        priority: TransferPriority = .playback, opened: (RemoteByteSource) -> Void = { _ in }
    ) throws(MediaError) -> [UInt8] {
        let source = loading.source(url, priority: priority, readAhead: Int64(limit))
        defer { source.close() }
        opened(source)
        if let range {
            try source.seek(to: range.offset)
            source.setFetchLimit(range.end)
        }
        let wanted = range.map { Int($0.length) } ?? limit + 1
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count < wanted {
            let room = min(chunk.count, wanted - bytes.count)
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<room]))
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        let count = bytes.count
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
        return bytes
    }

    /// The text of `url` (UTF-8; invalid bytes are replaced).
    public static func text(
        _ url: String, loading: RemoteLoading, priority: TransferPriority = .playback,
        opened: (RemoteByteSource) -> Void = { _ in }
    ) throws(MediaError) -> String {
        String(decoding: try bytes(url, loading: loading, priority: priority, opened: opened), as: UTF8.self)
    }
}
