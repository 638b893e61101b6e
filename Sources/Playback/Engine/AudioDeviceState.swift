import AudioDevice

/// The audio output device as the engine sees it: the device once connected, what was written to it since the
/// last flush (to find the media time being heard), and what it reported.
struct AudioDeviceState: @unchecked Sendable {
    /// The connected device (nil while connecting, after a failure, or for the null output). Used under the
    /// engine's lock, but for making a stream for a new format (``PlayerCore/prepareAudioDevice``).
    var device: (any AudioOutputDevice)?
    /// Audio taken from the item but not written yet: it waits for a stream of its format to be made (oldest
    /// first; at most what one pass takes, as the engine makes the stream before its next pass).
    var pending: [(buffer: AudioBuffer, end: MediaTime)] = []
    /// Why the device cannot be used, if it failed.
    var failure: AudioDeviceError?
    /// The output in use (and the error that made it the null one), not reported yet: it is, at the first item's
    /// load (``PlayerCore/reportAudioOutput(_:error:)``).
    var unreported: (output: String, error: String?)?
    /// The audio written since the last flush, oldest first: media start and end (seconds) and device seconds.
    var segments: [(start: Double, end: Double, seconds: Double)] = []
    /// The presentation's audio epoch the segments belong to (a seek or a new item starts another).
    var epoch: UInt64 = 0
    /// Everything of this epoch's audio was written (the track ended): the device plays out what it holds, and
    /// the clock no longer follows it (a drained device stands still).
    var drained = false
    /// Whether the playhead ran at the last look, and the clock time from which the device's timing is followed:
    /// a stream just flushed or resumed reports its latency from stale timing for a moment (after a seek it read
    /// 140 ms ahead), so for ``settling`` seconds the playhead runs on the host clock from where it started.
    var running = false
    var settlesAt = 0.0
    static let settling = 0.2
    /// Whether the playhead is the time heard now (running, settled, not drained), and the time it may not go
    /// below: where the playhead was when following began (a device that starts late holds the picture there
    /// instead of taking it back).
    var following = false
    var floor = 0.0

    /// How far ahead of the playhead audio is written, in device seconds: what the engine thread may be late by
    /// before the device runs dry (the suite's parallel tests on 2 CPUs made 0.15 s underrun now and then).
    static let lead = 0.25

    /// The media time being heard, given the device's latency: walking back from the end of what was written by
    /// `latency` seconds of device time (each segment at the rate it was stretched for). Nil when nothing was
    /// written, or when everything written has been heard (the device ran dry: it leads no more).
    func heard(latency: Double) -> Double? {
        guard !segments.isEmpty, latency > 0.002 else { return nil }
        var remaining = latency
        for segment in segments.reversed() {
            if remaining <= segment.seconds {
                return segment.end - (segment.end - segment.start) * remaining / max(segment.seconds, 1e-9)
            }
            remaining -= segment.seconds
        }
        return segments.first?.start
    }

    /// Records audio written; keeps about the last two seconds.
    mutating func wrote(start: Double, end: Double, seconds: Double) {
        segments.append((start, end, seconds))
        if segments.count > 400 { segments.removeFirst(segments.count - 200) }
    }
}
