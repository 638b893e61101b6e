import Playback
import Testing

/// The drag as a value: one keyframe seek in flight, the newest position waiting, the exact frame at the end.
@Suite("Scrubbing machine")
struct ScrubbingMachineTests {
    static func t(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }

    @Test("positions while a seek is in flight replace each other; the newest goes next")
    func latestWins() {
        var machine = ScrubbingMachine()
        #expect(machine.begin() == .none && machine.isScrubbing)
        #expect(machine.scrub(to: Self.t(1)) == .seekKeyframe(Self.t(1)))
        #expect(machine.scrub(to: Self.t(2)) == .none)
        #expect(machine.scrub(to: Self.t(3)) == .none)
        #expect(machine.seekCompleted() == .seekKeyframe(Self.t(3)))
        #expect(machine.seekCompleted() == .none)
        #expect(machine.scrub(to: Self.t(4)) == .seekKeyframe(Self.t(4)))
    }

    @Test("lifting with a seek in flight: the exact seek to the last position at once; finished after both complete")
    func endWhileInFlight() {
        var machine = ScrubbingMachine()
        _ = machine.begin()
        _ = machine.scrub(to: Self.t(1))
        _ = machine.scrub(to: Self.t(2))
        #expect(machine.end() == .seekExact(Self.t(2)), "the keyframe seek to 1 in flight is superseded")
        #expect(machine.scrub(to: Self.t(5)) == .none, "ignored once lifted")
        #expect(machine.seekCompleted() == .none, "the superseded keyframe seek completes first")
        #expect(machine.isScrubbing)
        #expect(machine.seekCompleted() == .finished, "then the exact one")
        #expect(!machine.isScrubbing)
    }

    @Test("lifting when idle: the exact seek at once; with no position: finished at once")
    func endWhenIdle() {
        var machine = ScrubbingMachine()
        _ = machine.begin()
        _ = machine.scrub(to: Self.t(1))
        _ = machine.seekCompleted()
        #expect(machine.end() == .seekExact(Self.t(1)))
        #expect(machine.seekCompleted() == .finished)
        var empty = ScrubbingMachine()
        _ = empty.begin()
        #expect(empty.end() == .finished && !empty.isScrubbing)
        #expect(empty.scrub(to: Self.t(1)) == .none && empty.end() == .none, "nothing outside a drag")
    }
}
