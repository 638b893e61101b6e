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
    /// A device of another backend (see ``AudioOutputDevice``), connected by `connector`, as `pulse` is (its clock
    /// leads under the host clock; a failure is reported and the player goes on with the null device).
    case device(AudioOutputDeviceConnector)

    /// How the player connects to the device of this output (nil: the null device).
    var connector: AudioOutputDeviceConnector? {
        switch self {
        case .null: return nil
        case .pulse(let sink, let server):
            return AudioOutputDeviceConnector(name: "pulse") { () throws(AudioDeviceError) -> any AudioOutputDevice in
                try PulseAudioDevice.connect(sink: sink, server: server)
            }
        case .device(let connector): return connector
        }
    }
}
