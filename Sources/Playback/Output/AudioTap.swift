import MediaIO
import Locking

/// Receives the audio a player plays (what its null audio device consumes, at the clock's pace), for tests and
/// analysis. The block runs on the player's engine thread.
public final class AudioTap: Sendable {
    private let block: @Sendable (AudioBuffer) -> Void
    private let counters = Locked((buffers: 0, frames: 0))

    public init(_ block: @escaping @Sendable (AudioBuffer) -> Void = { _ in }) {
        self.block = block
    }

    /// Sample frames received so far.
    public var framesReceived: Int { counters.withLock { $0.frames } }

    func receive(_ buffer: AudioBuffer) {
        counters.withLock { $0.buffers += 1; $0.frames += buffer.frameCount }
        block(buffer)
    }
}
