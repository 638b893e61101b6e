import Playback
import Testing

/// `playImmediately(atRate:)` and switching automatic waiting on and off.
@Suite struct TimeControlImmediateTests {
    @Test func playImmediatelyPlaysWhenNotLikelyToKeepUp() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        #expect(machine.playImmediately(atRate: 1) == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])
        expectState(machine, rate: 1, .playing)
    }

    @Test func playImmediatelyPlaysBeforeAnyBufferReport() {
        var machine = pausedReadyMachine(likelyToKeepUp: nil)
        #expect(machine.playImmediately(atRate: 2) == [.emitRate(2, previous: 0), .startClock(rate: 2), .emitPlaying])
    }

    @Test func playImmediatelyEndsAWaitAtTheSameRate() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        _ = machine.play()
        #expect(machine.playImmediately(atRate: 1) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func playImmediatelyWithAnEmptyBufferBehavesAsAStall() {
        var machine = pausedReadyMachine(likelyToKeepUp: false, bufferEmpty: true)
        #expect(machine.playImmediately(atRate: 1) == [.emitRate(1, previous: 0), .emitWaiting(.toMinimizeStalls)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [],
            "after the stall, resuming waits for a buffer likely to keep up")
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func playImmediatelyWithAnEmptyBufferAndNoAutomaticWaitingWaitsForData() {
        var machine = pausedReadyMachine(likelyToKeepUp: false, bufferEmpty: true, automaticallyWaits: false)
        #expect(
            machine.playImmediately(atRate: 1) == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func playImmediatelyWithoutAReadyItemIsSetRate() {
        var noItem = TimeControlStateMachine()
        #expect(noItem.playImmediately(atRate: 1) == [.emitRate(1, previous: 0), .emitWaiting(.noItemToPlay)])

        var loading = TimeControlStateMachine()
        _ = loading.itemChanged(hasItem: true, isReady: false)
        #expect(
            loading.playImmediately(atRate: 1) == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(loading.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [])
        #expect(
            loading.itemBecameReady() == [.emitWaiting(.toMinimizeStalls)],
            "the immediate request does not outlive the loading item")
    }

    @Test func playImmediatelyAtZeroPauses() throws {
        var machine = try playingMachine()
        #expect(machine.playImmediately(atRate: 0) == [.emitRate(0, previous: 1), .stopClock, .emitPaused])
    }

    @Test func playImmediatelyWhilePlayingOnlyChangesTheRate() throws {
        var machine = try playingMachine()
        #expect(machine.playImmediately(atRate: 1) == [])
        #expect(machine.playImmediately(atRate: 3) == [.emitRate(3, previous: 1), .setClockRate(3)])
    }

    @Test func turningAutomaticWaitingOffStartsAWaitingPlayer() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        _ = machine.play()
        #expect(machine.setAutomaticallyWaitsToMinimizeStalling(false) == [.startClock(rate: 1), .emitPlaying])
        #expect(!machine.automaticallyWaitsToMinimizeStalling)
    }

    @Test func turningAutomaticWaitingOffWithAnEmptyBufferWaitsForData() {
        var machine = pausedReadyMachine(likelyToKeepUp: false, bufferEmpty: true)
        _ = machine.play()
        #expect(machine.setAutomaticallyWaitsToMinimizeStalling(false) == [.emitWaiting(.evaluatingBufferingRate)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func turningAutomaticWaitingOnNeverStopsPlayback() throws {
        var machine = try playingMachine(automaticallyWaits: false)
        _ = machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false)
        #expect(machine.setAutomaticallyWaitsToMinimizeStalling(true) == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func turningAutomaticWaitingOnMakesAPausedPlayerWaitOnPlay() {
        var machine = pausedReadyMachine(likelyToKeepUp: false, automaticallyWaits: false)
        #expect(machine.setAutomaticallyWaitsToMinimizeStalling(true) == [])
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.toMinimizeStalls)])
    }

    @Test func togglingAutomaticWaitingDoesNotAffectNoItemWaiting() {
        var machine = TimeControlStateMachine()
        _ = machine.play()
        #expect(machine.setAutomaticallyWaitsToMinimizeStalling(false) == [])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
    }
}
