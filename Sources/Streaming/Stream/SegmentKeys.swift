import Foundation
import Loading
import Locking
import MediaCore

/// The AES-128 keys of a session's segments (`#EXT-X-KEY:METHOD=AES-128`), each fetched once per key URL through
/// `Loading` and kept while it is among the ``limit`` used last (a stream that rotates its key every few segments,
/// live for hours, would otherwise keep every key it ever used). Both readers share it: fetches are serialized, so
/// a key two readers ask for at once is fetched once.
final class SegmentKeys: Sendable {
    /// Keys by URL, the most recently used last.
    private let keys = Locked<[(url: String, key: [UInt8])]>([])
    /// Held while a key is fetched.
    private let fetching = NSLock()
    /// How many keys are kept (16 bytes each, and their URL). The two readers and the downloads ahead use a few
    /// keys at a time; one dropped is fetched again (through the byte cache) if it is needed again.
    let limit: Int

    init(limit: Int = 32) {
        self.limit = max(1, limit)
    }

    /// The URLs of the keys kept, least recently used first.
    var keptURLs: [String] { keys.withLock { $0.map(\.url) } }

    /// The kept key of `url`, now the most recently used.
    private func kept(_ url: String) -> [UInt8]? {
        keys.withLock { keys in
            guard let index = keys.firstIndex(where: { $0.url == url }) else { return nil }
            let entry = keys.remove(at: index)
            keys.append(entry)
            return entry.key
        }
    }

    /// The 16 bytes of the key at `url`.
    /// - Throws: the loader's errors; `.malformedManifest` naming `url` when the resource is not 16 bytes long.
    func key(_ url: String, loading: RemoteLoading) throws(MediaError) -> [UInt8] {
        if let key = kept(url) { return key }
        fetching.lock()
        defer { fetching.unlock() }
        if let key = kept(url) { return key }
        let bytes = try ResourceReader.bytes(url, limit: 4096, loading: loading)
        guard bytes.count == 16 else {
            throw MediaError(
                .malformedManifest, url: url, operation: .read,
                reason: "an AES-128 key has 16 bytes, this resource \(bytes.count)")
        }
        keys.withLock { keys in
            keys.append((url, bytes))
            if keys.count > limit { keys.removeFirst(keys.count - limit) }
        }
        return bytes
    }
}
