import Loading
import Locking
import Playback
import PlaybackTesting
import Testing

@testable import Loading

/// What a cache tells its transfer observers: the bytes a resource's transfers delivered while they moved, and the
/// time they took (a sample for a bandwidth estimate).
@Suite("Transfer measurements")
struct TransferMeasurementTests {
    @Test("the rate meter's measurement: the bytes after the first piece, first to last arrival; one per break")
    func rateMeter() {
        var meter = RateMeter()
        meter.add(1000, at: 10)
        meter.add(3000, at: 10.5)
        meter.add(5000, at: 11)
        let measured = meter.pause()
        #expect(measured?.bytes == 8000 && measured?.seconds == 1)
        #expect(meter.pause() == nil, "nothing since the break")
        meter.add(500, at: 20)
        #expect(meter.pause() == nil, "a single piece took no measurable time")
    }

    @Test(
        "a prefetch over a 100 KB/s simulated link: measurements of its URL at the link's rate, then none once removed")
    func observed() async {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 100_000, latency: 0, directory: MediaFixtures.directory.path)
        let loading = RemoteLoading(cache: ByteCache(), transport: network)
        let seen = Locked<[TransferMeasurement]>([])
        let observer = loading.cache.observeTransfers { measurement in seen.withLock { $0.append(measurement) } }
        let url = "http://simulated/a.mp4"
        _ = loading.prefetch(url, upTo: 200_000)
        for _ in 0..<6 { await clock.advance(bySeconds: 0.5) }
        let measurements = seen.withLock { $0 }
        #expect(!measurements.isEmpty && measurements.allSatisfy { $0.url == url })
        let bytes = measurements.reduce(Int64(0)) { $0 + $1.bytes }
        let seconds = measurements.reduce(0.0) { $0 + $1.seconds }
        #expect(bytes >= 150_000 && bytes < 200_000, "the first piece aside: \(measurements)")
        #expect(seconds > 0 && abs(Double(bytes) / seconds - 100_000) < 15_000, "\(measurements)")
        loading.cache.removeTransferObserver(observer)
        _ = loading.prefetch("http://simulated/b.mp4", upTo: nil)
        for _ in 0..<4 { await clock.advance(bySeconds: 0.5) }
        #expect(seen.withLock { $0.count } == measurements.count, "removed: told nothing more")
    }
}
