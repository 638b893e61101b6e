/// The sound server `AVAudioSession` watches for its route and interruptions (``PlayctlAVFoundation/Configuration/soundServer``).
public enum SoundServer: Sendable, Equatable {
    /// None: the route stays empty and no route change or interruption is posted.
    case none
    /// A PulseAudio server (or PipeWire's pulse server), named as `PULSE_SERVER` names one (`unix:/run/…/native`);
    /// nil: `PULSE_SERVER`, else the user's.
    case pulseAudio(server: String?)
}
