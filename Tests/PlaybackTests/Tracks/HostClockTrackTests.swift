import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Tracks under the host clock (real time)")
struct HostClockTrackTests {
    @Test("cues show at their times in real time; an audio switch mid-play continues the audio with no gap")
    func realTime() async throws {
        let item = PlayerItem(url: TrackClips.path("tracks.mp4"))
        let cues = CueLog()
        item.add(cues.output)
        let audio = AudioLog()
        let player = Player(item: item, clock: .host)
        defer { player.invalidate() }
        player.add(audio.tap)
        let events = Locked<[PlayerEvent]>([])
        player.observeEvents { event in events.withLock { $0.append(event) } }
        try await waitUntil("the item to load") { item.status != .unknown }
        let legible = try #require(item.mediaSelectionGroup(for: .legible))
        let audible = try #require(item.mediaSelectionGroup(for: .audible))
        item.select(legible.options[0], in: legible)
        // The switch at 1.2 s from a boundary observer, on the player's callback thread: a test task polling the
        // playhead may be scheduled late on a loaded machine (the whole suite runs beside it), after the end.
        let frenchOption = audible.options[1]
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 1.2)]) { _ in
            item.select(frenchOption, in: audible)
        }
        player.play()
        try await waitUntil("didPlayToEnd") { events.withLock { $0.contains { $0.kind == .didPlayToEnd } } }
        await player.callbacksDelivered()
        let shown = events.withLock { $0 }.compactMap { event -> (Double, Double, TextCue)? in
            guard case .cue(let cue) = event.kind else { return nil }
            return (event.hostTime, event.itemTime.seconds, cue)
        }
        #expect(shown.map(\.2.text) == TrackClips.englishCues.map(\.text))
        // Each shown when the playhead reached its start (the engine wakes for it, not at the next frame: checked to
        // the millisecond under the manual clock in TimedTextTests). In real time a loaded machine wakes the engine
        // thread late now and then (a cue 30 ms late once in CI's plain pass of the whole suite): each within 0.1 s,
        // the median within 20 ms. Under a sanitizer the engine thread wakes late by any amount (0.28 s once in CI's
        // ThreadSanitizer pass), and the audio switch below may come after the end: there the test looks for races,
        // and the plain pass holds the times and the switch.
        guard !Sanitizers.isActive else { return }
        let lateness = shown.map { abs($0.1 - $0.2.start.seconds) }
        #expect(lateness.allSatisfy { $0 < 0.1 }, "\(lateness)")
        #expect(lateness.sorted()[lateness.count / 2] < 0.02, "\(lateness)")
        // And in real time, as far apart as their starts.
        let starts = shown.map(\.0)
        for (clock, cue) in zip(starts, TrackClips.englishCues) {
            #expect(abs((clock - starts[0]) - (cue.start - TrackClips.englishCues[0].start)) < 0.1)
        }
        #expect(cues.changes.last?.texts == [])
        // The audio: the English track, then the French one, each buffer starting where the last one ended (a late
        // switch would show as a gap: at most one buffer's).
        let received = audio.received
        let english = try TrackSupport.reference("tracks.mp4", stream: 1)
        let french = try TrackSupport.reference("tracks.mp4", stream: 2)
        let firstFrench = try #require(received.firstIndex { !TrackSupport.matches($0, english) })
        #expect(received[..<firstFrench].allSatisfy { TrackSupport.matches($0, english) })
        #expect(received[firstFrench...].allSatisfy { TrackSupport.matches($0, french) })
        for (previous, next) in zip(received, received.dropFirst()) {
            let gap = (next.time - (previous.time + previous.duration)).seconds
            #expect(gap >= -1.0 / 48_000 && gap <= previous.duration.seconds, "gap \(gap) at \(next.time.seconds)")
        }
        #expect(received.last.map { ($0.time + $0.duration).seconds } ?? 0 > 3.9)
    }
}
