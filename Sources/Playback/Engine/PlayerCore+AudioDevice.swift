import AudioDevice
import Foundation

/// The audio output device (host clock; PulseAudio or another ``AudioOutputDevice``): audio written ahead to the
/// device, the timeline following the device's clock, corks, flushes, failures (locked unless said otherwise).
extension PlayerCore {
    /// Unlocked, from `start()`: connects on a thread of its own, then reports the output in use.
    func connectAudioDevice(_ connector: AudioOutputDeviceConnector) {
        guard case .host = clockMode, audioEnabled else {
            mutate { $0.reportAudioOutput("null", error: nil) }
            return
        }
        startDedicatedThread(name: "playctl.audio-device") { [self] in
            let result = Result { () throws(AudioDeviceError) in try connector.connect() }
            let unused = mutate { core -> (any AudioOutputDevice)? in
                guard !core.state.stopped else { return try? result.get() }
                switch result {
                case .success(let device):
                    core.state.device.device = device
                    core.reportAudioOutput(connector.name, error: nil)
                case .failure(let error):
                    core.state.device.failure = error
                    core.reportAudioOutput("null", error: error.description)
                }
                return nil
            }
            unused?.close()
        }
    }

    /// Reports the output in use once an item has loaded (before its status): a player reports it from its
    /// first item on, so an app that subscribes after making the player hears of it, as of the item's readiness.
    func reportAudioOutput(_ name: String, error: String?) {
        state.device.unreported = (name, error)
        if currentLoaded != nil { emitUnreportedAudioOutput(at: clockNow()) }
    }

    /// Emits the output in use if it was not reported yet (locked; on an item's load, or at once).
    func emitUnreportedAudioOutput(at now: Double) {
        guard let (name, error) = state.device.unreported else { return }
        state.device.unreported = nil
        emit(.audioOutput(name, error: error), at: now)
    }

    /// Whether audio goes to the sound server now.
    var writesToDevice: Bool { state.device.device != nil }

    /// Engine thread, host clock, before presenting: notices a device that went away, flushes what belongs to
    /// an earlier position (a seek, another item), corks while the playhead stands, and makes the timeline follow
    /// the media time being heard.
    func followAudioDevice(at now: Double) {
        guard let device = state.device.device else { return }
        do throws(AudioDeviceError) {
            try device.check()
            if state.device.epoch != state.presentation.audioEpoch {
                device.flush()
                state.device.segments.removeAll()
                state.device.pending.removeAll()
                state.device.epoch = state.presentation.audioEpoch
                state.device.drained = false
                state.device.following = false
                state.device.settlesAt = now + AudioDeviceState.settling
            }
            let running = state.timeline.isRunning && !state.seeks.isSeeking
            if running, !state.device.running { state.device.settlesAt = now + AudioDeviceState.settling }
            state.device.running = running
            device.setCorked(!running)
            if !state.device.drained, state.device.pending.isEmpty, let audio = currentLoaded?.audio?.snapshot(),
                audio.ended, audio.count == 0
            {
                // All of the item's audio was written: the device plays out its tail (below the stream's start
                // threshold), and the clock runs on from the last time heard to the end.
                state.device.drained = true
                device.trigger()
            }
            let follow = running && now >= state.device.settlesAt && !state.device.drained
            if follow, !state.device.following { state.device.floor = state.timeline.itemTime(at: now).seconds }
            state.device.following = follow
            // The timeline is kept at the time heard too: what it predicts (when the next frame is due) starts there.
            guard follow, let heard = try heardTime(device) else { return }
            state.timeline.anchor(MediaTime(seconds: max(heard, state.device.floor)), at: now)
        } catch {
            audioDeviceFailed(error, at: now)
        }
    }

    /// The playhead while the device leads (``timelineTime(at:)``): the time heard now, never below where the
    /// playhead was when following began; nil while it does not lead (paused, settling, drained, no reading).
    /// Read at every look, so the playhead moves as the device plays: never back and forth between passes.
    func followedTime() -> Double? {
        guard state.device.following, state.timeline.isRunning, let device = state.device.device,
            let heard = try? heardTime(device)
        else { return nil }
        return max(heard, state.device.floor)
    }

    /// The media time being heard (nil when the device does not lead now: nothing written, or all of it heard).
    func heardTime(_ device: any AudioOutputDevice) throws(AudioDeviceError) -> Double? {
        guard let latency = try device.latency() else { return nil }
        return state.device.heard(latency: latency)
    }

    /// Writes `due` to the device (with the player's volume) after what waited for a stream, then corks it if the
    /// playhead stands. Audio of a format the device has no stream for waits, with what follows it, while one is
    /// made after the lock is released (a round trip to the server, up to 2 s: the playhead can be read meanwhile).
    func writeToDevice(_ due: [(buffer: AudioBuffer, end: MediaTime)], at now: Double) {
        guard let device = state.device.device else { return }
        let gain: Float = state.outputs.muted ? 0 : state.outputs.volume
        let writes = state.device.pending + due
        state.device.pending.removeAll()
        do throws(AudioDeviceError) {
            for (index, (buffer, end)) in writes.enumerated() where buffer.frameCount > 0 {
                let (rate, channels) = (buffer.sampleRate, buffer.channels)
                guard try device.write(buffer.samples, sampleRate: rate, channels: channels, gain: gain) else {
                    state.device.pending = Array(writes[index...])
                    state.work.append(.prepareAudioDevice(device, sampleRate: rate, channels: channels))
                    break
                }
                state.device.wrote(
                    start: buffer.time.seconds, end: end.seconds,
                    seconds: Double(buffer.frameCount) / Double(buffer.sampleRate))
            }
            device.setCorked(!(state.timeline.isRunning && !state.seeks.isSeeking))
        } catch {
            audioDeviceFailed(error, at: now)
        }
    }

    /// Unlocked (collected work): makes the device ready for a new format; a failure is the device's.
    func prepareAudioDevice(_ device: any AudioOutputDevice, sampleRate: Int, channels: Int) {
        do throws(AudioDeviceError) {
            try device.prepare(sampleRate: sampleRate, channels: channels)
        } catch {
            mutate { core in
                guard core.state.device.device === device else { return }
                core.audioDeviceFailed(error, at: core.clockNow())
            }
        }
    }

    /// The device went away: report it, and go on with the null device and the host clock (from where the
    /// playhead is).
    func audioDeviceFailed(_ error: AudioDeviceError, at now: Double) {
        guard let device = state.device.device else { return }
        state.device.device = nil
        state.device.following = false
        state.device.segments.removeAll()
        state.device.pending.removeAll()
        state.device.failure = error
        device.close()
        emit(.audioOutput("null", error: error.description), at: now)
    }

    /// The audio clock at `now` for avsync: the media time heard (PulseAudio), else the playhead.
    func audioClock(at now: Double) -> Double {
        if let device = state.device.device, now >= state.device.settlesAt, !state.device.drained,
            let heard = try? heardTime(device)
        {
            return heard
        }
        return timelineTime(at: now).seconds
    }
}
