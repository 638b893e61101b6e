import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Streaming
import Testing

/// The variant switch metric events of a real HLS ladder play (scripts/netns.sh serves it), read as an app reads
/// them: through the item's metric streams.
@Suite(
    "Variant switch metrics of an HLS ladder play", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct VariantSwitchMetricsPlaybackTests {
    /// Appends every element `stream` gives to `list`, in a task the caller cancels.
    static func gather<Element: Sendable>(
        _ stream: AsyncStream<Element>, into list: Locked<[Element]>
    ) -> Task<Void, Never> {
        Task {
            for await element in stream { list.withLock { $0.append(element) } }
        }
    }

    @Test(
        "a 1080p start and a peak bit rate set mid-play: two starts, two successful ends, at the frames that switch",
        arguments: ["hls-ts/master.m3u8", "hls-fmp4/master.m3u8"])
    func limitSwitch(manifest: String) async throws {
        // A link known to be fast: the session starts on the highest rung.
        let item = PlayerItem(url: LadderMedia.url(manifest), loading: RemoteLoading(cache: ByteCache()))
        item.bandwidthEstimate = .known(100_000_000)
        item.preferredForwardBufferDuration = 2
        let starts = Locked<[VariantSwitchStartEvent]>([])
        let ends = Locked<[VariantSwitchEvent]>([])
        let tasks = [
            Self.gather(item.metrics(forType: VariantSwitchStartEvent.self), into: starts),
            Self.gather(item.metrics(forType: VariantSwitchEvent.self), into: ends),
        ]
        defer { for task in tasks { task.cancel() } }
        let (frames, trace) = try await AdaptivePlaybackTests.play(item) { _, count in
            if count == 45 { item.preferredPeakBitRate = 1_200_000 }
        }
        try await waitUntil("two variant switch starts and two ends in the metrics") {
            starts.withLock { $0.count } >= 2 && ends.withLock { $0.count } >= 2
        }
        let started = starts.withLock { $0 }
        let ended = ends.withLock { $0 }
        let log = "\(started.map(\.description)) \(ended.map(\.description)) \(trace.suffix(5))"
        try #require(started.count == 2 && ended.count == 2, "\(log)")
        #expect(started.map(\.variantSwitch) == item.variantSwitches, "one start per decision, in order")
        #expect(started[0].from == nil && started[0].to.resolution?.width == 1920 && started[0].reason == "initial")
        #expect(started[1].from == started[0].to && started[1].to.resolution?.width == 640)
        #expect(started[1].reason == "limits")
        #expect(ended.map(\.variantSwitch) == started.map(\.variantSwitch))
        #expect(ended.allSatisfy { $0.didSucceed }, "\(log)")
        #expect(Set((started + ended as [any MetricEvent]).map(\.sessionID)).count == 1)
        #expect(ended[1].hostTime >= started[1].hostTime && ended[0].hostTime <= started[1].hostTime)
        // The switch ended when the reader got to the new variant: before its first frame was shown.
        let switchAt = try #require(frames.firstIndex { $0.width == 640 }, "it switched")
        #expect(abs(frames[switchAt].seconds - ended[1].seconds) < 0.1, "the segment it names is where it shows")
        #expect(ended[1].mediaTime.seconds <= frames[switchAt].seconds)
        #expect(ended[1].mediaTime >= started[1].mediaTime)
        // The segments downloaded or read then: the new variant's first segment (2 s) among them, within the 12 s.
        let loaded = ended[1].loadedTimeRanges
        let at = ended[1].seconds
        #expect(
            loaded.contains { $0.start.seconds <= at + 1e-6 && $0.end.seconds >= at + 2 - 1e-6 }, "\(loaded)")
        #expect(loaded.allSatisfy { $0.start.seconds >= 0 && $0.end.seconds <= 12 + 1e-6 }, "\(loaded)")
    }

    @Test("a queue's next item, loaded ahead: its first choice starts and ends once, in its own session")
    func queuedItem() async throws {
        let items = (0..<2).map { _ in
            let item = PlayerItem(
                url: LadderMedia.url("hls-ts/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
            item.preferredPeakBitRate = 1_200_000
            return item
        }
        let starts = Locked<[VariantSwitchStartEvent]>([])
        let ends = Locked<[VariantSwitchEvent]>([])
        let tasks = [
            Self.gather(items[1].metrics(forType: VariantSwitchStartEvent.self), into: starts),
            Self.gather(items[1].metrics(forType: VariantSwitchEvent.self), into: ends),
        ]
        defer { for task in tasks { task.cancel() } }
        let player = QueuePlayer(items: items, clock: .untimed, audio: false)
        defer { player.invalidate() }
        let events = player.events()
        player.play()
        let next = items[1].serialNumber
        let (sessionStart, choseBeforeCurrent) = try await withDeadline("both items to play to their end") {
            var sessionStart: Double?
            var choseBeforeCurrent = false
            var ended = 0
            for await event in events {
                if case .currentItem = event.kind, event.itemSerialNumber == next { sessionStart = event.hostTime }
                if case .variantSwitch = event.kind, event.itemSerialNumber == next {
                    choseBeforeCurrent = choseBeforeCurrent || sessionStart == nil
                }
                if case .didPlayToEnd = event.kind { ended += 1 }
                if ended == 2 { break }
            }
            return (sessionStart, choseBeforeCurrent)
        }
        await player.callbacksDelivered()
        try await waitUntil("the next item's variant switch start and end in the metrics") {
            starts.withLock { $0.count } >= 1 && ends.withLock { $0.count } >= 1
        }
        let started = starts.withLock { $0 }
        let finished = ends.withLock { $0 }
        try #require(started.count == 1 && finished.count == 1, "\(started) \(finished)")
        #expect(started[0].from == nil && started[0].reason == "initial" && started[0].to.resolution?.width == 640)
        #expect(finished[0].didSucceed && finished[0].variantSwitch == started[0].variantSwitch)
        #expect(started[0].sessionID == finished[0].sessionID)
        #expect(choseBeforeCurrent, "the next item was loaded, and chose, before it became current")
        let begun = try #require(sessionStart)
        #expect(started[0].hostTime >= begun && finished[0].hostTime >= begun, "reported in the item's own session")
    }
}
