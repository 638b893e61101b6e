import MediaIO
import Playback
import Testing

@Suite struct SeekStateMachineTests {
    typealias Action = SeekStateMachine.Action

    static func seconds(_ s: Double) -> MediaTime { MediaTime(seconds: s, preferredTimescale: 1000) }

    @Test func idleMachineHasNothingPending() {
        var machine = SeekStateMachine()
        #expect(machine.pendingTarget == nil)
        #expect(machine.currentSeek == nil)
        #expect(!machine.isSeeking)
        #expect(machine.lastLandedTime == nil)
        #expect(machine.cancelPendingSeeks() == [])
    }

    @Test func requestStartsASeekAndLandingCompletesIt() {
        var machine = SeekStateMachine()
        let target = Self.seconds(12.5)
        let (id, actions) = machine.request(target: target, exact: true)
        #expect(id == SeekID(rawValue: 1))
        #expect(actions == [.startSeek(id, target: target, exact: true)])
        #expect(machine.pendingTarget == target, "current time reports the target from the request on")
        #expect(machine.currentSeek == id)
        #expect(machine.isSeeking)

        let landed = Self.seconds(12.48)
        #expect(machine.decoderLanded(id, at: landed) == [.complete(id, finished: true)])
        #expect(machine.pendingTarget == nil)
        #expect(!machine.isSeeking)
        #expect(machine.lastLandedTime == landed)
        #expect(machine.decoderLanded(id, at: landed) == [], "a seek completes once")
    }

    @Test func newRequestCompletesTheOneInFlightFirst() {
        var machine = SeekStateMachine()
        let first = machine.request(target: Self.seconds(1), exact: false).id
        let (second, actions) = machine.request(target: Self.seconds(2), exact: false)
        #expect(second == SeekID(rawValue: 2))
        #expect(
            actions == [.complete(first, finished: false), .startSeek(second, target: Self.seconds(2), exact: false)])
        #expect(machine.pendingTarget == Self.seconds(2))
    }

    @Test func burstOfFiftyCompletesFortyNineFalseThenOneTrueInOrder() {
        var machine = SeekStateMachine()
        var completions: [(SeekID, Bool)] = []
        var started: [SeekID] = []
        var ids: [SeekID] = []
        func record(_ actions: [Action]) {
            for action in actions {
                switch action {
                case .complete(let id, let finished): completions.append((id, finished))
                case .startSeek(let id, _, _): started.append(id)
                }
            }
        }
        for i in 0..<50 {
            let (id, actions) = machine.request(target: Self.seconds(Double(i) * 0.1), exact: i.isMultiple(of: 2))
            ids.append(id)
            record(actions)
        }
        #expect(machine.pendingTarget == Self.seconds(4.9))
        for id in ids.reversed() { record(machine.decoderLanded(id, at: Self.seconds(4.9))) }

        #expect(started == ids)
        #expect(completions.map(\.0) == ids, "each id exactly once, in request order")
        #expect(completions.prefix(49).allSatisfy { !$0.1 })
        #expect(completions.last?.1 == true)
        #expect(Set(ids).count == 50)
    }

    @Test func staleLandingIsIgnored() {
        var machine = SeekStateMachine()
        let first = machine.request(target: Self.seconds(1), exact: true).id
        let second = machine.request(target: Self.seconds(2), exact: true).id
        #expect(machine.decoderLanded(first, at: Self.seconds(1)) == [])
        #expect(machine.currentSeek == second)
        #expect(machine.lastLandedTime == nil)
        #expect(machine.decoderLanded(SeekID(rawValue: 99), at: .zero) == [], "an id never issued is ignored")
        #expect(machine.decoderLanded(second, at: Self.seconds(2)) == [.complete(second, finished: true)])
    }

    @Test func cancelPendingSeeksCompletesTheSeekInFlight() {
        var machine = SeekStateMachine()
        let id = machine.request(target: Self.seconds(3), exact: false).id
        #expect(machine.cancelPendingSeeks() == [.complete(id, finished: false)])
        #expect(machine.pendingTarget == nil)
        #expect(machine.cancelPendingSeeks() == [])
        #expect(machine.decoderLanded(id, at: Self.seconds(3)) == [], "a late landing after cancel is stale")
        #expect(machine.lastLandedTime == nil)
    }

    @Test func failureCompletesTheCurrentSeekOnly() {
        var machine = SeekStateMachine()
        let first = machine.request(target: Self.seconds(1), exact: false).id
        let second = machine.request(target: Self.seconds(2), exact: false).id
        #expect(machine.failed(first) == [])
        #expect(machine.failed(second) == [.complete(second, finished: false)])
        #expect(machine.failed(second) == [])
        #expect(!machine.isSeeking)
    }

    @Test(arguments: [MediaTime.invalid, .indefinite, .positiveInfinity, .negativeInfinity])
    func nonNumericTargetSupersedesAndFailsAtOnce(target: MediaTime) {
        var machine = SeekStateMachine()
        let first = machine.request(target: Self.seconds(1), exact: false).id
        let (id, actions) = machine.request(target: target, exact: false)
        #expect(actions == [.complete(first, finished: false), .complete(id, finished: false)])
        #expect(!machine.isSeeking)
        #expect(machine.pendingTarget == nil)
        #expect(machine.decoderLanded(id, at: .zero) == [])
    }

    @Test func idsIncreaseAcrossCompletedSeeks() {
        var machine = SeekStateMachine()
        let a = machine.request(target: .zero, exact: true).id
        _ = machine.decoderLanded(a, at: .zero)
        let b = machine.request(target: .zero, exact: true).id
        #expect(a < b)
        #expect(b.description == "seek#2")
    }
}
