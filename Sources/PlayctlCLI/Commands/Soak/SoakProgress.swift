import Synchronization

/// Steps completed so far, read by the watchdog.
final class SoakProgress: Sendable {
    private let count = Atomic<Int>(0)

    var steps: Int { count.load(ordering: .relaxed) }

    func completeStep() { count.add(1, ordering: .relaxed) }
}
