import Playback
import Testing

/// Stalls, the end of the item, item replacement and failure, and seeks.
@Suite struct TimeControlInterruptionTests {
    // MARK: Stalls

    @Test func stallWithAutomaticWaitingWaitsAndKeepsTheRate() throws {
        var machine = try playingMachine()
        #expect(machine.stalled() == [.stopClock, .emitWaiting(.toMinimizeStalls)])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [])
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func stallWithoutAutomaticWaitingPausesWithRateZero() throws {
        var machine = try playingMachine(rate: 2, automaticallyWaits: false)
        #expect(machine.stalled() == [.emitRate(0, previous: 2), .stopClock, .emitPaused])
        expectState(machine, rate: 0, .paused)
        #expect(machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [], "a paused player stays paused")
    }

    @Test func stallIsIgnoredUnlessPlaying() {
        var paused = pausedReadyMachine(likelyToKeepUp: true)
        #expect(paused.stalled() == [])
        var waiting = pausedReadyMachine(likelyToKeepUp: false)
        _ = waiting.play()
        #expect(waiting.stalled() == [])
        expectState(waiting, rate: 1, .waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
    }

    // MARK: End of item

    @Test func endWithPausePausesWithRateZero() throws {
        var machine = try playingMachine()
        #expect(machine.reachedEnd(actionAtItemEnd: .pause) == [.emitRate(0, previous: 1), .stopClock, .emitPaused])
        expectState(machine, rate: 0, .paused)
    }

    @Test func endWithNoneChangesNothing() throws {
        var machine = try playingMachine()
        #expect(machine.reachedEnd(actionAtItemEnd: .none) == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func endWithAdvanceAsksTheDriverAndFollowsItsReport() throws {
        var machine = try playingMachine()
        #expect(machine.reachedEnd(actionAtItemEnd: .advance) == [.advanceToNextItem])
        expectState(machine, rate: 1, .playing)
        #expect(machine.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: true) == [], "seamless advance")
        #expect(machine.reachedEnd(actionAtItemEnd: .advance) == [.advanceToNextItem])
        #expect(machine.itemChanged(hasItem: false, isReady: false) == [.stopClock, .emitWaiting(.noItemToPlay)])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
    }

    @Test(arguments: ActionAtItemEnd.allCases)
    func endIsIgnoredWithoutRateOrReadyItem(action: ActionAtItemEnd) {
        var paused = pausedReadyMachine(likelyToKeepUp: true)
        #expect(paused.reachedEnd(actionAtItemEnd: action) == [])
        var noItem = TimeControlStateMachine()
        _ = noItem.play()
        #expect(noItem.reachedEnd(actionAtItemEnd: action) == [])
        expectState(noItem, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
    }

    // MARK: Item replacement and failure

    @Test func replacingWithNilWhilePlayingWaitsForAnItem() throws {
        var machine = try playingMachine()
        #expect(machine.itemChanged(hasItem: false, isReady: false) == [.stopClock, .emitWaiting(.noItemToPlay)])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
        #expect(
            machine.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: true) == [
                .startClock(rate: 1), .emitPlaying,
            ])
    }

    @Test func replacingWithALoadingItemWhilePlayingEvaluates() throws {
        var machine = try playingMachine()
        #expect(
            machine.itemChanged(hasItem: true, isReady: false) == [.stopClock, .emitWaiting(.evaluatingBufferingRate)])
    }

    @Test func replacingWithAnUnreportedReadyItemDependsOnAutomaticWaiting() throws {
        var waits = try playingMachine()
        #expect(
            waits.itemChanged(hasItem: true, isReady: true) == [.stopClock, .emitWaiting(.evaluatingBufferingRate)])
        var doesNotWait = try playingMachine(automaticallyWaits: false)
        #expect(doesNotWait.itemChanged(hasItem: true, isReady: true) == [])
        var notLikely = try playingMachine()
        #expect(
            notLikely.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: false)
                == [.stopClock, .emitWaiting(.toMinimizeStalls)])
    }

    @Test func replacingForgetsTheOldBufferReport() {
        var machine = pausedReadyMachine(likelyToKeepUp: true)
        _ = machine.itemChanged(hasItem: true, isReady: true)
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
    }

    @Test func itemFailureWhilePlayingPausesAndRefusesPlay() throws {
        var machine = try playingMachine()
        #expect(machine.itemFailed() == [.emitRate(0, previous: 1), .stopClock, .emitPaused])
        #expect(machine.play() == [])
        #expect(machine.playImmediately(atRate: 1) == [])
        #expect(machine.pause() == [])
        #expect(machine.itemBecameReady() == [], "failed is final for the item")
        #expect(machine.itemFailed() == [])
        expectState(machine, rate: 0, .paused)
        #expect(machine.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: true) == [])
        #expect(machine.play() == [.emitRate(1, previous: 0), .startClock(rate: 1), .emitPlaying])
    }

    @Test func itemFailureWhileLoadingAndWaitingPauses() {
        var machine = TimeControlStateMachine()
        _ = machine.itemChanged(hasItem: true, isReady: false)
        _ = machine.play()
        #expect(machine.itemFailed() == [.emitRate(0, previous: 1), .emitPaused])
    }

    @Test func itemEventsWithoutAnItemAreIgnored() {
        var machine = TimeControlStateMachine()
        _ = machine.play()
        #expect(machine.itemBecameReady() == [])
        #expect(machine.itemFailed() == [])
        expectState(machine, rate: 1, .waitingToPlayAtSpecifiedRate, .noItemToPlay)
    }

    // MARK: Seeks

    @Test func seekIntoAnUnbufferedRegionWaitsAfterLanding() throws {
        var machine = try playingMachine()
        #expect(machine.seekStarted() == [])
        #expect(machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [])
        expectState(machine, rate: 1, .playing)
        #expect(machine.seekFinished() == [.stopClock, .emitWaiting(.toMinimizeStalls)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
    }

    @Test func seekIntoABufferedRegionKeepsPlaying() throws {
        var machine = try playingMachine()
        #expect(machine.seekStarted() == [])
        #expect(machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [])
        #expect(machine.seekFinished() == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func seekFinishedWithoutAReportEvaluates() throws {
        var machine = try playingMachine()
        _ = machine.seekStarted()
        #expect(machine.seekFinished() == [.stopClock, .emitWaiting(.evaluatingBufferingRate)])
    }

    @Test func seekWhileWaitingReEvaluates() {
        var machine = pausedReadyMachine(likelyToKeepUp: false)
        _ = machine.play()
        #expect(machine.seekStarted() == [.emitWaiting(.evaluatingBufferingRate)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: true, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
        #expect(machine.seekFinished() == [])
    }

    @Test func seekWithoutAutomaticWaitingNeverInterruptsPlayback() throws {
        var machine = try playingMachine(automaticallyWaits: false)
        #expect(machine.seekStarted() == [])
        #expect(machine.seekFinished() == [])
        expectState(machine, rate: 1, .playing)
    }

    @Test func playAfterASeekWithoutAutomaticWaitingWaitsForTheFirstData() {
        var machine = pausedReadyMachine(likelyToKeepUp: true, automaticallyWaits: false)
        #expect(machine.seekStarted() == [])
        #expect(machine.play() == [.emitRate(1, previous: 0), .emitWaiting(.evaluatingBufferingRate)])
        #expect(
            machine.bufferChanged(likelyToKeepUp: false, bufferEmpty: false) == [.startClock(rate: 1), .emitPlaying])
        #expect(machine.seekFinished() == [])
    }

    @Test func seekWhilePausedChangesNothingVisible() {
        var machine = pausedReadyMachine(likelyToKeepUp: true)
        #expect(machine.seekStarted() == [])
        #expect(machine.seekFinished() == [])
        expectState(machine, rate: 0, .paused)
    }
}
