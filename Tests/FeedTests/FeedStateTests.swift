import Loading
import MediaCore
import Playback
import Testing

@testable import Feed

/// The feed's decisions, input by input, without players or network: each input returns the work the driver
/// does, and nothing is called while deciding (the state holds no player, pool, loader or cache).
@Suite("Feed state: inputs in, work out")
struct FeedStateTests {
    static func state(
        _ kinds: String, pool: Int = 3, _ change: (inout FeedConfiguration) -> Void = { _ in }
    )
        -> FeedState
    {
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        change(&configuration)
        return FeedState(
            entries: PrefetchPlannerTests.feed(kinds), configuration: configuration, poolSize: pool, manualClock: true)
    }

    static func event(_ kind: PlayerEvent.Kind, _ sequence: UInt64, at time: Double = 0) -> PlayerEvent {
        PlayerEvent(kind: kind, hostTime: time, itemTime: .zero, item: nil, sequenceNumber: sequence)
    }

    @Test(
        "the first scroll: the link claimed, a player loads and plays the item, the next is prepared, an image fetched")
    func firstScroll() {
        var state = Self.state("vvivvv")
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(
            work == [
                .emit(.visible(index: 0), time: 0),
                .emit(.active(index: 0, prepared: false, hasFrame: false), time: 0),
                .emit(.picture(index: 0, shows: .nothing), time: 0),
                .claimLink(.active),
                .load(index: 0, player: 0, active: true),
                .emit(.poolAcquire(player: 0, index: 0, waited: false), time: 0),
                .play(index: 0, video: true),
                .load(index: 1, player: 1, active: false),
                .emit(.poolAcquire(player: 1, index: 1, waited: false), time: 0),
                .emit(.prepared(index: 1, player: 1, ready: false), time: 0),
                .startPrefetch(index: 2, id: 1, limit: nil, announce: true, time: 0),
                .sampleMemory,
            ])
        #expect(state.freePlayers == [2])
        #expect(state.linkClaimed)
        #expect(state.work.isEmpty, "the work went out with the step")
    }

    @Test("a player's events count only once its new item is reported in, and only those numbered after it")
    func eventsAfterLoad() {
        var state = Self.state("vvvv")
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        // Player 1 holds the prepared item 1; an event of its earlier item comes first.
        let early = state.step(.player(player: 1, event: Self.event(.firstFrame(latency: 0), 5)), at: 0.1, facts: [:])
        #expect(!early.contains { if case .emit(.prepared(1, _, true), _) = $0 { true } else { false } })
        _ = state.step(.loaded(index: 1, player: 1, since: 10), at: 0.1, facts: [:])
        let stale = state.step(.player(player: 1, event: Self.event(.firstFrame(latency: 0), 9)), at: 0.1, facts: [:])
        #expect(stale.filter { if case .emit = $0 { true } else { false } }.isEmpty)
        let frame = state.step(
            .player(player: 1, event: Self.event(.firstFrame(latency: 0), 11, at: 0.2)), at: 0.2, facts: [:])
        #expect(frame.contains(.emit(.prepared(index: 1, player: 1, ready: true), time: 0.2)))
        #expect(state.slots[1]?.hasFrame == true)
    }

    @Test("moving on: the link and the old item's player go back before the player is given again")
    func moveOn() {
        var state = Self.state("vvvvvv", pool: 2)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        _ = state.step(.loaded(index: 1, player: 1, since: 1), at: 0, facts: [:])
        _ = state.step(.player(player: 1, event: Self.event(.firstFrame(latency: 0), 2, at: 0.5)), at: 0.5, facts: [:])
        let work = state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        let release = work.firstIndex(of: .release(index: 0, player: 0))
        let reuse = work.firstIndex { if case .load(_, 0, _) = $0 { true } else { false } }
        #expect(release != nil && reuse != nil && release! < reuse!, "\(work)")
        // The item swiped to takes the claim over: it is never let go (held prefetches would ask for ranges).
        #expect(work.contains(.claimLink(.active)) && !work.contains(.releaseLink(.active)), "\(work)")
        #expect(state.linkClaimed)
        // The prepared item becomes active with its frame: on screen at once.
        #expect(work.contains(.emit(.active(index: 1, prepared: true, hasFrame: true), time: 1)))
        #expect(work.contains(.emit(.picture(index: 1, shows: .firstFrame), time: 1)))
        #expect(work.contains(.emit(.firstFrame(index: 1, latency: 0, prepared: true), time: 1)))
        #expect(work.contains(.play(index: 1, video: true)))
        #expect(
            work.firstIndex(of: .play(index: 1, video: true))! < work.firstIndex(
                of: .emit(.firstFrame(index: 1, latency: 0, prepared: true), time: 1))!)
    }

    @Test("with every player out the item waits, and gets the first one given back")
    func waitsForPlayer() {
        var state = Self.state("vvvv", pool: 1)
        let first = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(first.contains(.load(index: 0, player: 0, active: true)))
        #expect(!first.contains { if case .load(1, _, _) = $0 { true } else { false } })
        #expect(state.slots[1]?.waitsForPlayer == true && state.summary.poolWaits == 1)
        let next = state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        let release = next.firstIndex(of: .release(index: 0, player: 0))
        let load = next.firstIndex(of: .load(index: 1, player: 0, active: true))
        #expect(release != nil && load != nil && release! < load!, "\(next)")
    }

    @Test("the active item claims the link while its buffer is short, as the facts read of its player say")
    func linkClaimFromFacts() {
        var state = Self.state("vvvv") { $0.policy.preparesNext = false }
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        _ = state.step(.loaded(index: 0, player: 0, since: 1), at: 0, facts: [:])
        #expect(state.linkClaimed, "claimed at its activation")
        let short = [0: ItemFacts(position: 0, duration: 6, heldEndAtPosition: 0.2, heldEndFromStart: 0.2)]
        let frame = state.step(
            .player(player: 0, event: Self.event(.firstFrame(latency: 0), 2, at: 0.2)), at: 0.2, facts: short)
        #expect(frame.contains(.emit(.firstFrame(index: 0, latency: 0.2, prepared: false), time: 0.2)))
        #expect(!frame.contains(.releaseLink(.active)), "the first frame came, the buffer is short")
        let full = [0: ItemFacts(position: 0.2, duration: 6, heldEndAtPosition: 3.5, heldEndFromStart: 3.5)]
        let playing = state.step(
            .player(player: 0, event: Self.event(.timeControlStatus(.playing, reason: nil), 3, at: 0.3)), at: 0.3,
            facts: full)
        #expect(playing.contains(.emit(.started(index: 0, latency: 0.3, prepared: false), time: 0.3)))
        #expect(playing.contains(.releaseLink(.active)) && !state.linkClaimed)
        let low = [0: ItemFacts(position: 2.6, duration: 6, heldEndAtPosition: 3.6, heldEndFromStart: 3.6)]
        let later = state.step(.player(player: 0, event: Self.event(.periodicTime, 4, at: 2.6)), at: 2.6, facts: low)
        #expect(later.contains(.claimLink(.active)) && state.linkClaimed, "under half the target: claimed again")
    }

    @Test("an inactive video's prefetch: its header first, then its first pictures; a stale ending does nothing")
    func prefetchStages() {
        var state = Self.state("vivv") { $0.policy.preparesNext = false }
        let start = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let header = FeedConfiguration().policy.inactiveVideoHeaderBytes
        #expect(start.contains(.startPrefetch(index: 2, id: 2, limit: header, announce: true, time: 0)), "\(start)")
        let stale = state.step(.prefetchEnded(index: 2, id: 7, result: .success(())), at: 0.1, facts: [:])
        #expect(stale.filter { $0 != .sampleMemory }.isEmpty)
        let next = state.step(.prefetchEnded(index: 2, id: 2, result: .success(())), at: 0.2, facts: [:])
        #expect(
            Array(next.prefix(2)) == [
                .endPrefetch(index: 2, id: 2, cancel: false, outcome: nil, time: 0.2),
                .startFirstPictures(index: 2, id: 3, fallback: 200 << 10),
            ])
        let done = state.step(.prefetchEnded(index: 2, id: 3, result: .success(())), at: 0.3, facts: [:])
        #expect(done.first == .endPrefetch(index: 2, id: 3, cancel: false, outcome: .finished, time: 0.3))
        #expect(done.contains(.startPrefetch(index: 3, id: 4, limit: header, announce: true, time: 0.3)), "room for #3")
        #expect(state.summary.prefetchesFinished == 1 && state.summary.prefetchesStarted == 3)
    }

    @Test("a fling cancels the prefetches that left the window, each once")
    func flingCancels() {
        var state = Self.state(String(repeating: "i", count: 20)) { $0.policy.budget = 100 }
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let fling = state.step(.scroll(index: 15, speed: 20), at: 0.5, facts: [:])
        let cancelled = fling.compactMap { work -> Int? in
            if case .endPrefetch(let index, _, true, .cancelled, _) = work { return index }
            return nil
        }
        #expect(Set(cancelled) == [1, 2, 3, 4] && cancelled.count == 4, "\(fling)")
        #expect(state.summary.prefetchesCancelled == 4)
    }
}

extension FeedStateTests {
    @Test("what is read of the players before a decision: over a link the active playhead; local files, only when left")
    func factsNeeded() {
        var remote = Self.state("vvvv")
        _ = remote.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let event = FeedState.Input.player(player: 0, event: Self.event(.periodicTime, 3))
        #expect(remote.factsNeeded(for: event).items == [0] && remote.factsNeeded(for: event).playhead == 0)
        let local = ["/media/a.mp4", "/media/b.mp4", "/media/c.mp4"].map { FeedEntry(url: $0, kind: .video) }
        var state = FeedState(
            entries: local, configuration: FeedConfiguration(), poolSize: 3, manualClock: true)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(state.factsNeeded(for: event).items.isEmpty, "a local file's buffer decides nothing")
        #expect(state.factsNeeded(for: .scroll(index: 1, speed: 1)).playhead == 0, "the bytes it played, as it is left")
        // The prepared item (player 1): read on its player's events, and once it has its frame.
        let prepared = FeedState.Input.player(player: 1, event: Self.event(.firstFrame(latency: 0), 4))
        #expect(state.factsNeeded(for: prepared).items == [1] && state.factsNeeded(for: prepared).playhead == nil)
    }
}

/// The driver's queue stays small while a drain is busy: prompts coalesce per player, events acted on by kind stay.
@Suite("Feed state: the input queue's bound")
struct FeedInputQueueTests {
    @Test("10 000 buffer reports of two players while a drain runs leave one prompt each; first frames all stay")
    func promptsCoalesce() {
        var state = FeedStateTests.state("vvv")
        let drains = state.enqueue(.trim)
        #expect(drains, "the first input starts a drain")
        for n in 0..<10_000 {
            let kind: PlayerEvent.Kind = n % 2 == 0 ? .loadedTimeRanges([]) : .likelyToKeepUp(true)
            let drains = state.enqueue(.player(player: n % 2, event: FeedStateTests.event(kind, UInt64(n + 1))))
            #expect(!drains)
        }
        #expect(state.queuedInputs == 3, "the trim and one prompt per player")
        for n in 0..<3 {
            _ = state.enqueue(
                .player(player: 0, event: FeedStateTests.event(.firstFrame(latency: 0), UInt64(20_000 + n))))
        }
        _ = state.enqueue(.player(player: 0, event: FeedStateTests.event(.periodicTime, 30_000)))
        #expect(state.queuedInputs == 6, "first frames are kept; the new prompt replaced the queued one")
        // The newest prompt is the one left, in the place of the first.
        guard case .trim = state.nextInput() else {
            Issue.record("the trim first")
            return
        }
        guard case .player(0, let prompt) = state.nextInput() else {
            Issue.record("player 0's prompt")
            return
        }
        #expect(prompt.sequenceNumber == 30_000)
    }
}
