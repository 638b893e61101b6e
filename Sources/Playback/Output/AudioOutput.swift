import AudioDevice

/// Where a player's audio goes.
public enum AudioOutput: Sendable, Equatable {
    /// The null device: the audio is consumed at the clock's pace and not heard (the default; tests, manual clock).
    case null
    /// A PulseAudio server (or PipeWire's pulse server), on `sink` (nil or "default": the server's default sink).
    /// Under the host clock its device clock leads: the playing time is the time of the last sample written minus
    /// the device's latency. If the server is missing or goes away, the player reports it
    /// (``PlayerEvent/Kind/audioOutput(_:error:)``, ``Player/audioDeviceError``) and goes on with the null device.
    /// `server` names the server as `PULSE_SERVER` does (`unix:/path/native`); nil: `PULSE_SERVER`, else the
    /// user's.
    case pulse(sink: String?, server: String? = nil)
}
