import Testing

@testable import PlayctlBench

/// The seeded swipe traces every player of `bench --feed` replays.
@Suite("Swipe traces")
struct SwipeTraceTests {
    @Test("the same seed gives the same trace; another seed another one")
    func deterministic() {
        let first = SwipeTrace(seed: 7, swipes: 200, items: 100, dwell: .around(median: 2, spread: 0.25))
        let again = SwipeTrace(seed: 7, swipes: 200, items: 100, dwell: .around(median: 2, spread: 0.25))
        let other = SwipeTrace(seed: 8, swipes: 200, items: 100, dwell: .around(median: 2, spread: 0.25))
        #expect(first == again)
        #expect(first != other)
        // Pinned: a change of the generator changes every benchmark's trace, so it must be deliberate.
        #expect(first.steps.prefix(4).map(\.index) == [0, 1, 2, 3])
        #expect(first.steps.count == 201 && first.swipes == 200)
    }

    @Test("forward one item at a time, sometimes back, never before item 0, around to the top at the end")
    func shape() {
        let trace = SwipeTrace(seed: 1, swipes: 1000, items: 100, dwell: .fixed(1))
        #expect(trace.steps[0].index == 0)
        var backs = 0
        var tops = 0
        for (previous, step) in zip(trace.steps, trace.steps.dropFirst()) {
            #expect((0..<100).contains(step.index))
            if step.index == previous.index - 1 {
                backs += 1
            } else if step.index == 0 && previous.index == 99 {
                tops += 1
            } else {
                #expect(step.index == previous.index + 1, "\(previous.index) -> \(step.index)")
            }
        }
        #expect(backs > 60 && backs < 140, "about 1 in 10 back: \(backs)")
        #expect(tops >= 5)
        #expect(trace.duration == 1001)
    }

    @Test("dwells: log-uniform around the median, within half to twice it")
    func dwells() {
        let trace = SwipeTrace(seed: 3, swipes: 2000, items: 100, dwell: .around(median: 14, spread: 1))
        let dwells = trace.steps.map(\.dwell).sorted()
        #expect(dwells.first! >= 7 - 1e-9 && dwells.last! <= 28 + 1e-9)
        let median = dwells[dwells.count / 2]
        #expect(abs(median - 14) < 1, "median \(median)")
        #expect(abs(SwipeTrace.exp2(1) - 2) < 1e-12 && abs(SwipeTrace.exp2(-1) - 0.5) < 1e-12)
        #expect(abs(SwipeTrace.exp2(0.25) - 1.189_207_115_002_721) < 1e-12)
    }

    @Test("jumps land 6-9 items ahead, around the end: never in the prefetch window of the item before")
    func jumps() {
        let trace = SwipeTrace(seed: 2, swipes: 500, items: 100, dwell: .fixed(2), jump: 6...9)
        for (previous, step) in zip(trace.steps, trace.steps.dropFirst()) {
            let distance = (step.index - previous.index + 100) % 100
            #expect((6...9).contains(distance), "\(previous.index) -> \(step.index)")
        }
    }
}
