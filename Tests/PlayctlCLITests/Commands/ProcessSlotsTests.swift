import Locking
import PlaybackTesting
import Testing

@Suite("Process slots")
struct ProcessSlotsTests {
    @Test("12 holders through 2 slots: never more than 2 at once, every one served")
    func boundedAndFair() async {
        let slots = ProcessSlots(count: 2)
        let counts = Locked((now: 0, most: 0, done: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await slots.withSlot {
                        counts.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        try? await Task.sleep(for: .milliseconds(5))
                        counts.withLock {
                            $0.now -= 1
                            $0.done += 1
                        }
                    }
                }
            }
        }
        let final = counts.withLock { $0 }
        #expect(final.most == 2 && final.done == 12 && final.now == 0, "\(final)")
    }
}
