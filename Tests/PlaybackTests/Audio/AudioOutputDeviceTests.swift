import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// A device of a backend of the test's own behind the `AudioOutputDevice` seam: it keeps what it is given (a file
/// sink in memory) and plays it out in real time, so its latency is what was written and not yet heard.
final class RecordingAudioDevice: AudioOutputDevice {
    struct State {
        var format: (rate: Int, channels: Int)?
        var prepared: [Int] = []
        var samples = 0
        /// Device seconds written, and heard up to `since` (host seconds) while not corked.
        var written = 0.0
        var heard = 0.0
        var since: Double?
        var corked = false
        var closed = false
        var failWrites = false
        /// Fails every write and check once this many samples were written (a device lost mid-play, at a point of
        /// the media rather than of the test's thread).
        var failAfterSamples: Int?
    }

    let state = Locked(State())

    /// Advances what was heard to now (locked).
    private static func play(_ state: inout State) {
        let now = ProcessRunner.monotonicSeconds()
        if let since = state.since, !state.corked { state.heard = min(state.written, state.heard + now - since) }
        state.since = now
    }

    func prepare(sampleRate: Int, channels: Int) throws(AudioDeviceError) {
        try state.withLock { state throws(AudioDeviceError) in
            guard !state.closed else { throw AudioDeviceError(.connectionLost, "closed") }
            state.format = (sampleRate, channels)
            state.prepared.append(sampleRate)
        }
    }

    func check() throws(AudioDeviceError) {
        try state.withLock { state throws(AudioDeviceError) in
            if state.closed || state.failWrites || state.failAfterSamples.map({ state.samples >= $0 }) == true {
                throw AudioDeviceError(.connectionLost, "the recorder stopped")
            }
        }
    }

    func write(_ samples: [Float], sampleRate: Int, channels: Int, gain: Float) throws(AudioDeviceError) -> Bool {
        try state.withLock { state throws(AudioDeviceError) -> Bool in
            if state.closed || state.failWrites || state.failAfterSamples.map({ state.samples >= $0 }) == true {
                throw AudioDeviceError(.connectionLost, "the recorder stopped")
            }
            guard let format = state.format, format == (sampleRate, channels) else { return false }
            Self.play(&state)
            state.samples += samples.count
            state.written += Double(samples.count / channels) / Double(sampleRate)
            return true
        }
    }

    func latency() throws(AudioDeviceError) -> Double? {
        state.withLock { state in
            Self.play(&state)
            return state.written > 0 ? state.written - state.heard : nil
        }
    }

    func setCorked(_ value: Bool) {
        state.withLock { state in
            Self.play(&state)
            state.corked = value
        }
    }

    func trigger() {}

    func flush() {
        state.withLock { state in
            Self.play(&state)
            state.written = state.heard
        }
    }

    func close() { state.withLock { $0.closed = true } }
}

@Suite("Audio output devices behind the AudioOutputDevice seam")
struct AudioOutputDeviceTests {
    @Test("a device of another backend is reported, gets the audio in the item's format, and is closed")
    func anotherBackend() async throws {
        let device = RecordingAudioDevice()
        let output = AudioOutput.device(AudioOutputDeviceConnector(name: "recorder") { device })
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audioOutput: output)
        let log = EventLog(player)
        player.play()
        #expect(try await log.wait(timeout: 30) { $0 == .audioOutput("recorder", error: nil) })
        #expect(try await log.wait(timeout: 30) { $0 == .didPlayToEnd })
        #expect(player.isPlayingToAudioDevice)
        player.invalidate()
        let state = device.state.withLock { $0 }
        #expect(state.prepared == [44_100], "b.mp4's audio is 44.1 kHz stereo")
        // 4 s of stereo at 44.1 kHz, less what a seekless start may skip: nearly all of it was written.
        #expect(state.samples > 3 * 44_100 * 2 && state.samples <= 5 * 44_100 * 2, "\(state.samples)")
        #expect(state.closed)
    }

    @Test("a device that fails to connect, or goes away mid-play: reported, and the clip plays on the null device")
    func failures() async throws {
        let refused = AudioOutput.device(
            AudioOutputDeviceConnector(name: "recorder") { () throws(AudioDeviceError) -> any AudioOutputDevice in
                throw AudioDeviceError(.serverUnavailable, "no recorder")
            })
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audioOutput: refused)
        defer { player.invalidate() }
        let log = EventLog(player)
        player.play()
        #expect(
            try await log.wait(timeout: 30) {
                $0 == .audioOutput("null", error: "audio device: serverUnavailable: no recorder")
            })
        #expect(player.audioDeviceError?.kind == .serverUnavailable)

        let device = RecordingAudioDevice()
        let lost = Player(
            item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host,
            audioOutput: .device(AudioOutputDeviceConnector(name: "recorder") { device }))
        defer { lost.invalidate() }
        let lostLog = EventLog(lost)
        // Lost after a second of b.mp4's 44.1 kHz stereo (set before the play: a loaded machine's test thread
        // once came back after the engine had written the whole clip).
        device.state.withLock { $0.failAfterSamples = 44_100 * 2 }
        lost.play()
        #expect(try await lostLog.wait(timeout: 30) { $0 == .audioOutput("recorder", error: nil) })
        #expect(
            try await lostLog.wait(timeout: 30) { if case .audioOutput("null", .some) = $0 { true } else { false } })
        #expect(!lost.isPlayingToAudioDevice && lost.audioDeviceError?.kind == .connectionLost)
        #expect(try await lostLog.wait(timeout: 30) { $0 == .didPlayToEnd })
        #expect(device.state.withLock { $0.closed })
    }
}
