import Foundation
import Loading
import Locking
import PlaybackTesting
import Testing

/// Prefetches give the link to playback, on the real server over a shaped port.
@Suite(
    "Prefetch gives way to playback", .serialized,
    .enabled(if: TestHTTPServer.shapedSkipReason == nil, "needs a shaped link"))
struct LinkPriorityTests {
    @Test("a prefetch completes, from the first byte not held, and reports it")
    func prefetchCompletes() async throws {
        let loading = RemoteLoading(cache: ByteCache())
        let url = TestHTTPServer.url("a.mp4", over: .mbit20)
        let outcome = Locked<MediaError??>(nil)
        let task = loading.prefetch(url, upTo: 100_000) { error in outcome.withLock { $0 = .some(error) } }
        try await waitUntil("the prefetch's completion handler") { outcome.withLock { $0 } != nil }
        #expect(outcome.withLock { $0 } == .some(nil))
        #expect(try task.result?.get() != nil, "the result is set before the handler runs")
        #expect(loading.cache.cachedRanges(of: url) == [0..<100_000])
        // Held already: at once, without a transfer.
        let again = Locked<MediaError??>(nil)
        let before = loading.cache.currentStatistics.transfersStarted
        loading.prefetch(url, upTo: 50_000) { error in again.withLock { $0 = .some(error) } }
        try await waitUntil("the second prefetch's completion handler") { again.withLock { $0 } != nil }
        #expect(again.withLock { $0 } == .some(nil))
        #expect(loading.cache.currentStatistics.transfersStarted == before)
    }

    @Test("while a player claims the link, a prefetch holds within a chunk; it goes on when the claim ends")
    func claimHoldsPrefetch() async throws {
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20))
        let url = TestHTTPServer.url("mid.mp4", over: .mbit2Alone)
        let done = Locked(false)
        let claim = loading.cache.claimLink()
        let task = loading.prefetch(url, upTo: nil) { _ in done.withLock { $0 = true } }
        // Over 2 Mbit/s a free transfer brings about 250 KB a second; held, it brings at most what was in flight.
        try await Task.sleep(for: .seconds(1.5))
        let held = loading.cache.cachedRanges(of: url).reduce(Int64(0)) { $0 + Int64($1.count) }
        #expect(held <= 2 * Int64(ByteCache.chunkSize), "held within a chunk or two: \(held) bytes")
        #expect(!done.withLock { $0 })
        claim.release()
        // A fetch begun under the claim asked for nothing yet: its transfer starts now (0.4 s for 100 KB alone on
        // the link; other suites share that port, and under ThreadSanitizer the whole suite crawls: CI's run once
        // brought 184 KB in 8 s).
        try await waitUntil("100 KB more than the \(held) bytes held, the claim released") {
            loading.cache.cachedRanges(of: url).reduce(0) { $0 + $1.count } > Int(held) + 100_000
        }
        let after = loading.cache.cachedRanges(of: url).reduce(Int64(0)) { $0 + Int64($1.count) }
        #expect(after > held + 100_000, "it went on: \(after) bytes")
        #expect(task.result == nil)
        task.cancel()
        if case .failure(let error)? = task.result {
            #expect(error.reason == "cancelled")
        } else {
            Issue.record("a cancelled prefetch ends with a cancellation, not \(String(describing: task.result))")
        }
    }

    @Test("a reader lowered to prefetch priority holds under a claim, as a prefetch does; raised again, it goes on")
    func loweredReaderHolds() async throws {
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20))
        let url = TestHTTPServer.url("mid.mp4", over: .mbit2Alone)
        let source = loading.source(url, readAhead: 16 << 20)
        defer { source.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 12)
        _ = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        func held() -> Int64 { loading.cache.cachedRanges(of: url).reduce(Int64(0)) { $0 + Int64($1.count) } }
        let claim = loading.cache.claimLink()
        defer { claim.release() }
        // Its fetch was begun with playback priority: the claim does not hold it.
        try await Task.sleep(for: .seconds(0.5))
        let playing = held()
        try await Task.sleep(for: .seconds(1))
        #expect(held() > playing + 100_000, "playback goes on under the claim: \(playing) -> \(held()) bytes")
        source.setPriority(.prefetch)
        // What was in flight lands, then nothing more than the chunk it was writing.
        try await Task.sleep(for: .seconds(0.5))
        let lowered = held()
        try await Task.sleep(for: .seconds(1.5))
        #expect(held() <= lowered + Int64(ByteCache.chunkSize), "held: \(lowered) -> \(held()) bytes")
        source.setPriority(.playback)
        let raised = held()
        try await waitUntil("100 KB past the \(raised) bytes held, raised to playback") { held() > raised + 100_000 }
        #expect(held() > raised + 100_000, "it went on: \(raised) -> \(held()) bytes")
    }

    @Test("a playback reader's fetch is not held by the claim")
    func playbackIsNotHeld() async throws {
        let loading = RemoteLoading(cache: ByteCache())
        let claim = loading.cache.claimLink()
        defer { claim.release() }
        let source = loading.source(TestHTTPServer.url("a.mp4", over: .mbit20))
        defer { source.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            total += n
        }
        #expect(total == 398_568)
    }
}
