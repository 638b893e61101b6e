import Foundation
import Loading
import Locking
import MediaCore

/// The AES-128 keys of a session's segments (`#EXT-X-KEY:METHOD=AES-128`), each fetched once per key URL through
/// `Loading` and kept for the session's life. Both readers share it: fetches are serialized, so a key two readers
/// ask for at once is fetched once.
final class SegmentKeys: Sendable {
    private let keys = Locked<[String: [UInt8]]>([:])
    /// Held while a key is fetched.
    private let fetching = NSLock()

    /// The 16 bytes of the key at `url`.
    /// - Throws: the loader's errors; `.malformedManifest` naming `url` when the resource is not 16 bytes long.
    func key(_ url: String, loading: RemoteLoading) throws(MediaError) -> [UInt8] {
        if let key = keys.withLock({ $0[url] }) { return key }
        fetching.lock()
        defer { fetching.unlock() }
        if let key = keys.withLock({ $0[url] }) { return key }
        let bytes = try ResourceReader.bytes(url, limit: 4096, loading: loading)
        guard bytes.count == 16 else {
            throw MediaError(
                .malformedManifest, url: url, operation: .read,
                reason: "an AES-128 key has 16 bytes, this resource \(bytes.count)")
        }
        keys.withLock { $0[url] = bytes }
        return bytes
    }
}
