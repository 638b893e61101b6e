import Playback
import Testing

@Suite struct PlayerItemStatusMachineTests {
    @Test func startsUnknown() {
        let machine = PlayerItemStatusMachine()
        #expect(machine.status == .unknown)
        #expect(machine.errorDescription == nil)
    }

    @Test func unknownToReady() {
        var machine = PlayerItemStatusMachine()
        #expect(machine.becameReady() == [.emitStatus(.readyToPlay, errorDescription: nil)])
        #expect(machine.status == .readyToPlay)
        #expect(machine.becameReady() == [], "no event without a change")
    }

    @Test func unknownToFailed() {
        var machine = PlayerItemStatusMachine()
        #expect(machine.failed("no such file") == [.emitStatus(.failed, errorDescription: "no such file")])
        #expect(machine.status == .failed)
        #expect(machine.errorDescription == "no such file")
    }

    @Test func readyToFailedOnAFatalPlaybackError() {
        var machine = PlayerItemStatusMachine()
        _ = machine.becameReady()
        #expect(machine.failed("decoder error") == [.emitStatus(.failed, errorDescription: "decoder error")])
        #expect(machine.status == .failed)
    }

    @Test func failedIsFinalAndKeepsTheFirstError() {
        var machine = PlayerItemStatusMachine()
        _ = machine.failed("first")
        #expect(machine.failed("second") == [])
        #expect(machine.becameReady() == [])
        #expect(machine.status == .failed)
        #expect(machine.errorDescription == "first")
    }

    @Test func rawValuesMatchAVFoundation() {
        #expect(PlayerItemStatus.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(TimeControlStatus.allCases.map(\.rawValue) == [0, 1, 2])
        #expect(
            ActionAtItemEnd.advance.rawValue == 0 && ActionAtItemEnd.pause.rawValue == 1
                && ActionAtItemEnd.none.rawValue == 2)
        #expect(
            WaitingReason.allCases.map(\.rawValue) == ["toMinimizeStalls", "evaluatingBufferingRate", "noItemToPlay"])
    }
}
