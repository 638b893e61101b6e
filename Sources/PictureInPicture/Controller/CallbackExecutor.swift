import Dispatch
import Synchronization

/// The serial executor on which a ``PictureInPictureController`` calls app code: its delegate, the sample-buffer
/// playback delegate, and the mirroring of every callback onto its event stream.
///
/// Jobs run one at a time, in the order they were enqueued, on a dispatch queue of the controller's own (never on
/// the caller's thread, a player's engine thread, or under any lock of the library). App code may therefore call
/// back into the controller or its player from a callback. A callback that blocks delays every later callback of
/// the same controller, and under a ``Playback/ManualClock`` it also delays `advance(by:)`, which waits for the
/// callbacks of every Picture in Picture controller to be delivered.
final class CallbackExecutor: Sendable {
    private let queue: DispatchQueue
    /// Jobs enqueued and not finished yet.
    private let pending = Atomic<Int>(0)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `job` after every job enqueued before it.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        pending.add(1, ordering: .sequentiallyConsistent)
        queue.async { [self] in
            job()
            pending.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Whether no job is waiting or running.
    var isIdle: Bool { pending.load(ordering: .sequentiallyConsistent) == 0 }

    /// Returns once every job enqueued before the call, and every job those jobs enqueued in turn, has run.
    /// Must not be awaited from a job of this executor (the job would wait for itself).
    func drain() async {
        while !isIdle {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                queue.async { continuation.resume() }
            }
        }
    }
}
