/// Receives one transfer of a fetch, on the transport's thread, and hands what comes to the cache's state: an
/// ended transfer's cancel is asynchronous, and its late head or bytes are not taken for the next one's (the state
/// knows each fetch's current transfer by its serial).
final class TransferReceiver: TransferSink, Sendable {
    let cache: ByteCache
    let fetch: FetchID
    let serial: UInt64
    let url: String

    init(cache: ByteCache, fetch: FetchID, serial: UInt64, url: String) {
        self.cache = cache
        self.fetch = fetch
        self.serial = serial
        self.url = url
    }

    func transferReceived(head: ResponseHead) -> Bool {
        cache.withState { $0.transferHead(head, serial: serial, fetch: fetch) }
    }

    func transferReceived(_ bytes: UnsafeRawBufferPointer) {
        cache.disk?.waitForRoom(ByteCache.chunkSize)
        cache.withState { $0.transferBytes(bytes, url: url, serial: serial, fetch: fetch) }
    }

    func transferFinished(_ error: MediaError?) {
        cache.withState { $0.transferEnded(error, serial: serial, fetch: fetch) }
    }

    func deliveryBegan() { cache.withState { $0.holdSignals() } }
    func deliveryEnded() { cache.withState { $0.releaseSignals() } }
}
