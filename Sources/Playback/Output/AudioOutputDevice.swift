import AudioDevice

/// A sound device a player writes its audio to under the host clock, whose clock then leads: what the engine needs
/// of one, and all it knows of it. ``PulseAudioDevice`` is one; another backend (a PipeWire-native stream, a file
/// sink) is one more conforming class, plugged in with ``AudioOutput/device(_:)``, without touching the engine.
///
/// The engine calls every method but ``prepare(sampleRate:channels:)`` and ``close()`` with its lock held, on its
/// own thread: they must not wait (for a server, a disk) longer than a lock. `prepare` and `close` run with the lock
/// released and may wait. A method that finds the device gone throws `connectionLost`: the player then reports it
/// and goes on with the null device and the host clock.
public protocol AudioOutputDevice: AnyObject, Sendable {
    /// Makes the device ready for interleaved float samples at `sampleRate` with `channels` a frame, unless it is
    /// already (what it held of another format may be dropped). May wait.
    func prepare(sampleRate: Int, channels: Int) throws(AudioDeviceError)
    /// Throws `connectionLost` once the device has gone.
    func check() throws(AudioDeviceError)
    /// Queues interleaved float samples to be heard after what was written before, scaled by `gain`. Returns
    /// false, writing nothing, when the device is not ready for that format (the engine then calls `prepare`).
    func write(_ samples: [Float], sampleRate: Int, channels: Int, gain: Float) throws(AudioDeviceError) -> Bool
    /// Seconds until a sample written now is heard: the device's clock, from which the playhead follows the time
    /// heard. Nil while unknown (nothing written yet).
    func latency() throws(AudioDeviceError) -> Double?
    /// Pauses (`true`) or resumes playing what was written: what the device holds waits.
    func setCorked(_ value: Bool)
    /// Plays what the device holds even if it waits for more before starting (the end of the audio).
    func trigger()
    /// Drops what was written and not heard yet (a seek, another item).
    func flush()
    /// Releases the device; later calls throw `connectionLost` or do nothing. May wait.
    func close()
}

extension PulseAudioDevice: AudioOutputDevice {}

/// How a player gets its ``AudioOutputDevice``: a name (what ``PlayerEvent/Kind/audioOutput(_:error:)`` reports)
/// and a function that connects one. A player calls it once, on a thread of its own, when it starts (under the host
/// clock, with audio on); a failure is reported and the player goes on with the null device.
public struct AudioOutputDeviceConnector: Sendable, Equatable {
    /// What the player reports as its output once connected.
    public let name: String
    let connect: @Sendable () throws(AudioDeviceError) -> any AudioOutputDevice
    /// Two connectors are equal when one is a copy of the other.
    private let identity: Identity

    private final class Identity: Sendable {}

    /// A connector named `name` that connects with `connect`.
    public init(name: String, connect: @escaping @Sendable () throws(AudioDeviceError) -> any AudioOutputDevice) {
        self.name = name
        self.connect = connect
        self.identity = Identity()
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity === rhs.identity }
}
