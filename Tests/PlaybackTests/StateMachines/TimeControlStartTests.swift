import Playback
import Testing

/// Starting, pausing and changing the rate.
@Suite struct TimeControlStartTests {
    @Test func initialStateIsPausedWithNoItem() {
        let machine = TimeControlStateMachine()
        expectState(machine, rate: 0, .paused)
        #expect(machine.defaultRate == 1)
        #expect(machine.automaticallyWaitsToMinimizeStalling)
    }

    @Test func playWithNoItemWaitsForAnItem() {
        var machine = TimeControlStateMachine()
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.noItemToPlay)])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
        #expect(machine.pause() == [.emitRate(0, previous: 1), .emitPaused])
        expectState(machine, rate: 0, .paused)
    }

    @Test func itemChangesWhilePausedEmitNothing() {
        var machine = TimeControlStateMachine()
        #expect(machine.itemChanged(hasItem: true, isReady: false) == [])
        #expect(machine.itemBecameReady() == [])
        #expect(machine.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: true) == [])
        #expect(machine.itemChanged(hasItem: false, isReady: false) == [])
        expectState(machine, rate: 0, .paused)
    }

    @Test func playWithLikelyBufferPlaysAtOnce() {
        var machine = pausedReadyMachine(likelyToKeepUp: true)
        #expect(machine.play() == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])
        expectState(machine, rate: 1, .playing)
    }

    @Test func playBeforeAnyBufferReportEvaluatesThenFollowsTheReport() {
        var machine = pausedReadyMachine(likelyToKeepUp: nil)
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: true) == [.emitWaiting(.toMinimizeStalls)])
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [])
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
        expectState(machine, rate: 1, .playing)
    }

    @Test func playWhileItemLoadsWaitsThenStartsWhenReadyAndLikely() {
        var machine = TimeControlStateMachine()
        _ = machine.itemChanged(hasItem: true, isReady: false)
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .evaluatingBufferingRate)
        #expect(machine.itemBecameReady() == [.startClock(rate: 1), .emitPlaying])
        #expect(machine.itemBecameReady() == [])
    }

    @Test func readyItemWithoutReportKeepsEvaluating() {
        var machine = TimeControlStateMachine()
        _ = machine.itemChanged(hasItem: true, isReady: false)
        _ = machine.play()
        #expect(machine.itemBecameReady() == [])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .evaluatingBufferingRate)
    }

    @Test func setRateWhileWaitingChangesOnlyTheRate() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.toMinimizeStalls)])
        #expect(machine.setRate(2) == [.emitRate(2, previous: 1)])
        expectState(machine, rate: 2, .waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 2), .emitPlaying])
    }

    @Test func setRateWhilePlayingRetimesTheClock() throws {
        var machine = try playingMachine()
        #expect(machine.setRate(2) == [.emitRate(2, previous: 1), .setClockRate(2)])
        #expect(machine.setRate(2) == [])
        #expect(machine.setRate(0.5) == [.emitRate(0.5, previous: 2), .setClockRate(0.5)])
        expectState(machine, rate: 0.5, .playing)
    }

    @Test func pauseWhilePlayingStopsTheClockFirst() throws {
        var machine = try playingMachine()
        #expect(machine.pause() == [.emitRate(0, previous: 1), .stopClock, .emitPaused])
        #expect(machine.pause() == [])
        expectState(machine, rate: 0, .paused)
    }

    @Test func pauseWhileWaitingDoesNotTouchTheClock() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        _ = machine.play()
        #expect(machine.pause() == [.emitRate(0, previous: 1), .emitPaused])
    }

    @Test func defaultRateIsWhatPlayUses() {
        var machine = pausedReadyMachine(likelyToKeepUp: true)
        machine.setDefaultRate(1.5)
        for ignored: Float in [0, -1, .nan, .infinity] { machine.setDefaultRate(ignored) }
        #expect(machine.defaultRate == 1.5)
        #expect(machine.rate == 0, "setting the default rate never changes the rate")
        #expect(machine.play() == [.emitRate(1.5, previous: 0), .startClock(rate: 1.5), .emitPlaying])
        #expect(TimeControlStateMachine(defaultRate: -2).defaultRate == 1)
        #expect(TimeControlStateMachine(defaultRate: 2).defaultRate == 2)
    }

    @Test(arguments: [Float(-1), -0.5, .nan, .infinity, -.infinity])
    func unusableRatesAreIgnored(rate: Float) throws {
        var machine = try playingMachine()
        #expect(machine.setRate(rate) == [])
        #expect(machine.playImmediately(atRate: rate) == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func bufferReportsNeverStopPlayback() throws {
        var machine = try playingMachine()
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [])
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: true) == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func bufferReportsWhilePausedAreRememberedForTheNextPlay() {
        var machine = pausedReadyMachine(likelyToKeepUp: nil)
        #expect(machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [])
        expectState(machine, rate: 0, .paused)
        #expect(machine.play() == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])
    }

    @Test func withoutAutomaticWaitingPlayStartsUnlessTheBufferIsKnownEmpty() {
        var machine = pausedReadyMachine(likelyToKeepUp: false, automaticallyWaits: false)
        #expect(machine.play() == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])

        var empty = pausedReadyMachine(likelyToKeepUp: false, bufferEmpty: true, automaticallyWaits: false)
        #expect(empty.play() == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(empty.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func withoutAutomaticWaitingAnUnreportedBufferPlays() {
        var machine = pausedReadyMachine(likelyToKeepUp: nil, automaticallyWaits: false)
        #expect(machine.play() == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])
    }
}
