import Foundation
import Locking
import PlaybackTesting

@testable import Loading

/// One request through a loader, awaited: what the connection tests send (a few bytes of a served file, with a
/// query of the test's own so that its lines in nginx's access log are its own).
enum Requests {
    /// Fetches bytes `0..<count` of `url` through `loader`; the status the server answered (0 when none). Throws if
    /// the transfer does not finish (see `withDeadline`).
    static func fetch(_ url: String, through loader: HTTPLoader, count: Int64 = 1000) async throws -> Int {
        try await withDeadline("the transfer of \(url) to finish") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let sink = ResumingSink(continuation)
                _ = loader.start(TransferRequest(url: url, end: count), sink: sink)
            }
        }
    }

    /// The responses logged for `marker` once `count` are there (nginx logs a response when it ends).
    static func logged(_ marker: String, count: Int) async -> [TestHTTPServer.LoggedResponse] {
        await TestHTTPServer.responses(containing: marker, atLeast: count, within: 30)
    }

    /// Waits until `loader`'s preconnects ended: its servers' records show no transfer under way.
    static func waitForPreconnects(_ loader: HTTPLoader) async throws {
        try await waitUntil("the loader's preconnects to end", interval: .milliseconds(20)) {
            !loader.lock.withLock { loader.origins.values.contains { $0.transfers > 0 } }
        }
    }
}

/// Resumes a continuation with the response's status when the transfer ends.
private final class ResumingSink: TransferSink {
    private let state: Locked<(status: Int, continuation: CheckedContinuation<Int, Never>?)>

    init(_ continuation: CheckedContinuation<Int, Never>) {
        state = Locked((0, continuation))
    }

    func transferReceived(head: ResponseHead) -> Bool {
        state.withLock { $0.status = head.status }
        return true
    }

    func transferReceived(_ bytes: UnsafeRawBufferPointer) {}

    func transferFinished(_ error: MediaError?) {
        let (status, continuation) = state.withLock { state in
            defer { state.continuation = nil }
            return (error.map { Int($0.code) } ?? state.status, state.continuation)
        }
        continuation?.resume(returning: status)
    }
}
