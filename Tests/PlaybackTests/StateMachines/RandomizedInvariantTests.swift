import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Drives a time-control machine and a seek machine the way a driver would, with random inputs from a
/// fixed seed, and checks after every step that the actions are consistent with the readable state and
/// that the invariants hold. Stops at the first broken sequence and reports its index, step and input history.
@Suite struct RandomizedInvariantTests {
    static let seed: UInt64 = 0x5EED_2026
    static let sequences = 2_500
    static let stepsPerSequence = 60

    @Test func invariantsHoldForRandomInputSequences() {
        var random = SplitMix64(seed: Self.seed)
        var coverage: Set<String> = []
        for sequence in 0..<Self.sequences {
            var harness = Harness()
            for step in 0...Self.stepsPerSequence {
                if step < Self.stepsPerSequence { harness.step(using: &random) } else { harness.finish() }
                if let problem = harness.problem {
                    let at = step < Self.stepsPerSequence ? "step \(step)" : "finish"
                    Issue.record(
                        "sequence \(sequence), \(at): \(problem)\n  history: \(harness.history.joined(separator: " → "))"
                    )
                    return
                }
            }
            coverage.formUnion(harness.coverage)
        }
        let expected: Set<String> = [
            "paused", "playing", "waiting toMinimizeStalls", "waiting evaluatingBufferingRate", "waiting noItemToPlay",
            "emitRate", "startClock", "setClockRate", "stopClock", "advanceToNextItem",
            "seek finished", "seek not finished",
        ]
        #expect(coverage.isSuperset(of: expected), "not exercised: \(expected.subtracting(coverage).sorted())")
    }
}

/// The driver-side bookkeeping: what the actions said so far, checked against the machines.
private struct Harness {
    private enum Item: String { case none, loading, ready, failed }

    private var control = TimeControlStateMachine()
    private var seeks = SeekStateMachine()
    private var item = Item.none
    private var clockRunning = false
    private var announcedRate: Float = 0
    private var announcedStatus: (TimeControlStatus, WaitingReason?) = (.paused, nil)
    private var issued: [SeekID] = []
    private var completions: [SeekID: Int] = [:]
    private var lastCompleted: SeekID?
    private(set) var history: [String] = []
    /// The states and actions seen, so the test can tell that the random inputs reach them all.
    private(set) var coverage: Set<String> = []
    private(set) var problem: String?

    mutating func step(using random: inout SplitMix64) {
        let rates: [Float] = [0, 0.5, 1, 2, -1, .nan]
        switch Int.random(in: 0..<16, using: &random) {
        case 0: apply("setRate", control.setRate(random.pick(rates)))
        case 1: apply("play", control.play())
        case 2: apply("pause", control.pause())
        case 3:
            control.setDefaultRate(random.pick(rates))
            history.append("setDefaultRate")
        case 4: apply("playImmediately", control.playImmediately(atRate: random.pick(rates)))
        case 5: apply("autoWaits", control.setAutomaticallyWaitsToMinimizeStalling(random.bool()))
        case 6: changeItem(using: &random, label: "itemChanged")
        case 7:
            if item == .loading { item = .ready }
            apply("itemBecameReady", control.itemBecameReady())
        case 8:
            if item == .loading || item == .ready { item = .failed }
            apply("itemFailed", control.itemFailed())
        case 9, 10:
            apply("bufferChanged", control.bufferChanged(likelyToKeepUp: random.bool(), bufferEmpty: random.bool()))
        case 11: apply("stalled", control.stalled())
        case 12:
            let end = random.pick(ActionAtItemEnd.allCases)
            let actions = control.reachedEnd(actionAtItemEnd: end)
            apply("reachedEnd(\(end))", actions)
            if actions.contains(.advanceToNextItem) { changeItem(using: &random, label: "advanced") }
        case 13:
            let target = random.pick([MediaTime(seconds: Double.random(in: 0..<60, using: &random)), .invalid])
            let (id, actions) = seeks.request(target: target, exact: random.bool())
            issued.append(id)
            seekActions("seek", actions)
        case 14:
            guard let id = issued.randomElement(using: &random) else { return }
            if random.bool() {
                seekActions("landed", seeks.decoderLanded(id, at: .zero))
            } else {
                seekActions("seekFailed", seeks.failed(id))
            }
        default: seekActions("cancelSeeks", seeks.cancelPendingSeeks())
        }
        checkInvariants()
    }

    /// Cancels what is in flight and checks that every seek id was completed exactly once.
    mutating func finish() {
        seekActions("cancelSeeks", seeks.cancelPendingSeeks())
        for id in issued where completions[id] != 1 {
            fail("\(id) completed \(completions[id] ?? 0) times")
        }
    }

    private mutating func changeItem(using random: inout SplitMix64, label: String) {
        let hasItem = random.bool() || random.bool()
        let isReady = random.bool()
        item = hasItem ? (isReady ? .ready : .loading) : .none
        apply(
            label,
            control.itemChanged(
                hasItem: hasItem, isReady: isReady,
                likelyToKeepUp: random.pick([true, false, nil])))
    }

    /// Performs seek actions as the driver would, telling the time-control machine when seeks start and end.
    private mutating func seekActions(_ label: String, _ actions: [SeekStateMachine.Action]) {
        history.append("\(label)\(actions)")
        for action in actions {
            switch action {
            case .complete(let id, let finished):
                completions[id, default: 0] += 1
                coverage.insert(finished ? "seek finished" : "seek not finished")
                if let lastCompleted, id <= lastCompleted { fail("\(id) completed after \(lastCompleted)") }
                lastCompleted = id
                if finished && id != issued.last { fail("\(id) finished although superseded") }
            case .startSeek(let id, let target, _):
                if id != issued.last || seeks.pendingTarget != target {
                    fail("startSeek of \(id) is not the latest request")
                }
                apply("seekStarted", control.seekStarted())
            }
        }
        if actions.contains(where: { if case .complete = $0 { return true } else { return false } }), !seeks.isSeeking {
            apply("seekFinished", control.seekFinished())
        }
    }

    /// Checks one input's actions against what was announced before, then records them as the driver would.
    private mutating func apply(_ label: String, _ actions: [TimeControlStateMachine.Action]) {
        history.append("\(label)\(actions.map(\.description))")
        var order: [Int] = []
        for action in actions {
            coverage.insert(String(action.description.prefix { $0.isLetter }))
            switch action {
            case .emitRate(let new, let previous):
                order.append(0)
                if previous != announcedRate || new != control.rate || new == previous { fail("bad \(action)") }
                announcedRate = new
            case .startClock(let rate):
                order.append(1)
                if clockRunning || rate != control.rate { fail("bad \(action)") }
                clockRunning = true
            case .setClockRate(let rate):
                order.append(1)
                if !clockRunning || rate != control.rate { fail("bad \(action)") }
            case .stopClock:
                order.append(1)
                if !clockRunning { fail("stopClock while stopped") }
                clockRunning = false
            case .emitTimeControlStatus(let status, let reason):
                order.append(2)
                if status == announcedStatus.0 && reason == announcedStatus.1 { fail("status emitted without change") }
                announcedStatus = (status, reason)
            case .advanceToNextItem:
                if actions.count != 1 || !label.hasPrefix("reachedEnd") { fail("unexpected advance") }
            }
        }
        if order != order.sorted() || Set(order).count != order.count { fail("action order \(actions)") }
    }

    private mutating func checkInvariants() {
        let status = control.timeControlStatus
        let reason = control.reasonForWaitingToPlay
        let rate = control.rate
        coverage.insert(reason.map { "waiting \($0)" } ?? "\(status)")
        if announcedRate != rate { fail("rate \(rate) but announced \(announcedRate)") }
        if announcedStatus.0 != status || announcedStatus.1 != reason { fail("status \(status) not announced") }
        if clockRunning != (status == .playing) { fail("clock running \(clockRunning) while \(status)") }
        if status == .playing && !(rate > 0 && item == .ready) { fail("playing at \(rate) with item \(item)") }
        if (rate == 0) != (status == .paused) { fail("rate \(rate) while \(status)") }
        if (reason != nil) != (status == .waitingToPlayAtSpecifiedRate) {
            fail("reason \(String(describing: reason)) while \(status)")
        }
        if item == .failed && rate != 0 { fail("failed item with rate \(rate)") }
        if item == .none && rate > 0 && reason != .noItemToPlay { fail("no item but \(status)") }
        if item == .loading && rate > 0 && reason != .evaluatingBufferingRate { fail("loading item but \(status)") }
        if !(rate >= 0 && rate.isFinite) || !(control.defaultRate > 0 && control.defaultRate.isFinite) {
            fail("bad rates")
        }
        if seeks.isSeeking != (seeks.currentSeek != nil) || seeks.isSeeking != (seeks.pendingTarget != nil) {
            fail("seek state")
        }
        if let current = seeks.currentSeek, current != issued.last { fail("\(current) in flight, not the latest") }
        for id in issued where (completions[id] ?? 0) > 1 { fail("\(id) completed twice") }
    }

    private mutating func fail(_ message: String) {
        if problem == nil { problem = message }
    }
}
