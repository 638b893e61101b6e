import Locking

/// Receives the audio a player plays (what its null audio device consumes, at the clock's pace), for tests and
/// analysis. The block runs on the player's callback executor, in order; `framesReceived` counts at once.
public final class AudioTap: Sendable {
    private let block: @Sendable (AudioBuffer) -> Void
    private let counters = Locked((buffers: 0, frames: 0))

    public init(_ block: @escaping @Sendable (AudioBuffer) -> Void = { _ in }) {
        self.block = block
    }

    /// Sample frames received so far.
    public var framesReceived: Int { counters.withLock { $0.frames } }

    /// Counts `buffers` as played (by the engine, as it hands them out).
    func count(_ buffers: [AudioBuffer]) {
        counters.withLock { counters in
            for buffer in buffers {
                counters.buffers += 1
                counters.frames += buffer.frameCount
            }
        }
    }

    /// Gives `buffer` to the app's block (on the callback executor).
    func deliver(_ buffer: AudioBuffer) {
        block(buffer)
    }
}
