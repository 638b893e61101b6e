import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Remote items over a simulated link that follows the manual clock: deterministic stalls, resumes and failures.
@Suite("Playback over a simulated network under the manual clock")
struct SimulatedNetworkTests {
    struct Run {
        let trace: [String]
        let md5s: [String]
        let item: PlayerItem
        let network: SimulatedNetwork
    }

    /// Plays `clip` from `Media/` over a link of `bytesPerSecond`, advancing the clock by 0.1 s until the item ends
    /// or fails (at most 60 s of clock time).
    static func play(_ clip: String, bytesPerSecond: Int, dropAfter: Int64? = nil) async -> Run {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: bytesPerSecond, latency: 0.05,
            dropAfter: dropAfter, directory: MediaFixtures.directory.path)
        let item = PlayerItem(
            url: "http://sim.test/\(clip)",
            loading: RemoteLoading(cache: ByteCache(), transport: network))
        let player = Player(item: item, clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let md5s = Locked<[String]>([])
        player.add(VideoSink { frame in md5s.withLock { $0.append(frame.md5()) } })
        let recorder = TraceRecorder(player)
        player.play()
        for _ in 0..<600 {
            await clock.advance(bySeconds: 0.1)
            let trace = await recorder.snapshot()
            if trace.contains(where: { $0.contains("didPlayToEnd") || $0.contains(" failed") }) { break }
        }
        return Run(trace: await recorder.snapshot(), md5s: md5s.withLock { $0 }, item: item, network: network)
    }

    @Test("a link slower than the clip stalls and recovers, shows every frame, and gives the same trace every run")
    func slowLink() async throws {
        var traces: [[String]] = []
        for _ in 0..<3 {
            let run = await Self.play("a.mp4", bytesPerSecond: 45_000)
            #expect(run.md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
            #expect(run.trace.contains { $0.hasSuffix("stalled") }, "\(run.trace.joined(separator: "\n"))")
            #expect(run.trace.contains { $0.contains("didPlayToEnd") })
            traces.append(run.trace)
        }
        for trace in traces.dropFirst() where trace != traces[0] {
            let diff = trace.difference(from: traces[0]).map { change -> String in
                switch change {
                case .insert(let offset, let line, _): return "+\(offset) \(line)"
                case .remove(let offset, let line, _): return "-\(offset) \(line)"
                }
            }
            Issue.record("another trace: \(diff.joined(separator: "\n"))")
        }
    }

    @Test("a link faster than the clip never stalls")
    func fastLink() async throws {
        let run = await Self.play("a.mp4", bytesPerSecond: 400_000)
        #expect(!run.trace.contains { $0.hasSuffix("stalled") }, "\(run.trace.joined(separator: "\n"))")
        #expect(run.md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
    }

    /// How often a trace's buffer flags change (`likelyToKeepUp`, `bufferFull`, `bufferEmpty`), and its stalls.
    static func flagChanges(_ trace: [String]) -> (likely: Int, full: Int, empty: Int, stalls: Int) {
        func count(_ suffixes: [String]) -> Int {
            trace.filter { line in suffixes.contains { line.hasSuffix($0) } }.count
        }
        return (
            count(["likelyToKeepUp true", "likelyToKeepUp false"]), count(["bufferFull true", "bufferFull false"]),
            count(["bufferEmpty true", "bufferEmpty false"]), count(["stalled"])
        )
    }

    @Test("the buffer flags follow the media buffered, not the decoded frames: no flapping with or without stalls")
    func flagsDoNotFlap() async throws {
        // A link at about twice the clip's rate: likelyToKeepUp is reported (not likely) and becomes likely; the
        // buffer is reported, becomes full, and not full in the last 1.75 s; nothing at every frame.
        let fast = await Self.play("a.mp4", bytesPerSecond: 150_000)
        let calm = Self.flagChanges(fast.trace)
        #expect(calm.stalls == 0, "\(fast.trace.joined(separator: "\n"))")
        #expect(calm.likely <= 2 && calm.full <= 3 && calm.empty <= 2, "\(calm): \(fast.trace.joined(separator: "\n"))")
        // A link slower than the clip: at most four changes of each flag per stall, besides those of a calm run.
        let slow = await Self.play("a.mp4", bytesPerSecond: 45_000)
        let stalling = Self.flagChanges(slow.trace)
        #expect(stalling.stalls > 0, "\(slow.trace.joined(separator: "\n"))")
        for changes in [stalling.likely, stalling.full, stalling.empty] {
            #expect(changes <= 3 + 4 * stalling.stalls, "\(stalling): \(slow.trace.joined(separator: "\n"))")
        }
    }

    @Test("connections dropped every 100 KB are resumed where they stopped; every frame is shown")
    func drops() async throws {
        let run = await Self.play("a.mp4", bytesPerSecond: 200_000, dropAfter: 100_000)
        #expect(run.item.status == .readyToPlay, "\(run.trace.joined(separator: "\n"))")
        #expect(run.md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
        #expect(run.network.bytesDelivered <= Int64(try MediaFixtures.bytes("a.mp4").count) + 2 * 65_536)
    }

    @Test("a missing file fails the item with a 404 naming its URL")
    func missing() async throws {
        let run = await Self.play("nope.mp4", bytesPerSecond: 200_000)
        #expect(run.item.status == .failed)
        #expect(run.item.error?.kind == .httpStatus && run.item.error?.code == 404)
        #expect(run.item.error?.url == "http://sim.test/nope.mp4")
    }
}
