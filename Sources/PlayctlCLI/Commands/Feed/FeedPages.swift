import Feed
import Loading
import Locking
import MediaCore
import Streaming

/// The pages of an endless feed's JSON manifest: each page's `next` URL, read through the loader when the feed asks
/// (``FeedPageSource``; on the feed's own thread). A page that cannot be read or used is a `MediaError` naming its
/// URL (the feed reports it as `feed.pageFailed` and goes on); a page without `next` is the last.
final class FeedPages: FeedPageSource {
    private let next: Locked<String?>
    private let loading: RemoteLoading
    /// Empty pages followed in a row before the source gives up (a loop of empty pages is not a feed).
    static let emptyPageLimit = 8

    init(next: String?, loading: RemoteLoading) {
        self.next = Locked(next)
        self.loading = loading
    }

    func nextPage(after count: Int) throws(MediaError) -> [FeedEntry] {
        for _ in 0..<Self.emptyPageLimit {
            guard let url = next.withLock({ $0 }) else { return [] }
            // The loader's own error (a status, a timeout, a dead host) as it is; what the page says, as a manifest's.
            let bytes =
                RemoteLoading.isRemote(url)
                ? try ResourceReader.bytes(url, limit: FeedInputFile.byteLimit, loading: loading)
                : try Self.local(url)
            let page: FeedManifest
            do throws(FeedInputError) {
                page = try FeedManifest(path: url, json: FeedInputFile.json(bytes: bytes, file: url), allowsEmpty: true)
            } catch {
                throw MediaError(.malformedManifest, url: url, operation: .read, reason: error.description)
            }
            next.withLock { $0 = page.next }
            if !page.entries.isEmpty { return page.entries }
        }
        return []
    }

    private static func local(_ path: String) throws(MediaError) -> [UInt8] {
        do throws(FeedInputError) {
            return try FeedInputFile.bytes(path)
        } catch {
            throw MediaError(.readFailed, url: path, operation: .open, reason: error.description)
        }
    }
}
