import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// The PulseAudio output against a real daemon (`scripts/pulse.sh`: a null sink whose monitor is recorded). These
/// fail, with the reason, when no server was started for them.
@Suite("PulseAudio output (a real daemon)", .serialized)
struct PulseOutputTests {
    @Test("what reaches the sink is the decoded audio, sample for sample, and the volume scales it")
    func audioReachesTheServer() async throws {
        let server = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PulseSupport.noiseClip(seconds: 8, in: directory)
        let decoded = try PulseSupport.decodedSamples(clip)
        // A sink named (device selection by name), one nothing else plays to: other suites play to the default one
        // meanwhile, and what they play would be mixed into the recording.
        let player = Player(
            item: PlayerItem(url: clip), clock: .host, audioOutput: .pulse(sink: PulseServer.exactSink, server: server))
        defer { player.invalidate() }
        let log = EventLog(player)
        // The recording starts first: a new stream's first milliseconds may be lost, and it may start late; the
        // comparison aligns the two instead of timing the start.
        async let recording = PulseServer.record(seconds: 8.5, from: server, sink: PulseServer.exactSink)
        try await Task.sleep(for: .milliseconds(300))
        player.play()
        try await Task.sleep(for: .seconds(4))
        player.volume = 0.5
        let recorded = try await recording
        #expect(log.audioOutputs.first?.0 == "pulse", "\(log.audioOutputs)")
        #expect(player.isPlayingToAudioDevice)
        // A 1024-frame probe from a second into what was recorded (or later, where the device did not run dry in it
        // on a loaded machine), found in the decoded track.
        try #require(recorded.count > 48_000 * 2 * 4, "recorded \(recorded.count / 2) frames")
        let clean = stride(from: 48_000 * 2, to: 48_000 * 2 * 3, by: 12_000 * 2).first { start in
            stride(from: start, to: start + 1024 * 2, by: 2).allSatisfy { recorded[$0] != 0 || recorded[$0 + 1] != 0 }
        }
        let probeStart = clean ?? 48_000 * 2
        let probe = recorded[probeStart..<(probeStart + 1024 * 2)]
        let (offset, correlation) = PulseSupport.align(probe, in: Array(decoded.prefix(48_000 * 2 * 6)))
        // Under a sanitizer the engine runs several times slower and the device may run dry every few milliseconds:
        // CI's ThreadSanitizer pass of the whole suite once found nothing to align (correlation 0.04). There the
        // test looks for races in this path; the plain pass holds every figure.
        if Sanitizers.isActive {
            print("pulse recording under a sanitizer: probe at \(probeStart / 2), correlation \(correlation)")
            return
        }
        #expect(correlation > 0.999, "best correlation \(correlation) at \(offset)")
        // From there on, the recording is the decoded samples in order, none lost or repeated, times the volume (1,
        // then 0.5: one change), with silence where the device ran dry (an underrun on a loaded machine: the sink
        // plays silence, then the samples that came late).
        let walk = PulseSupport.follow(recorded, from: probeStart, decoded, from: offset * 2)
        #expect(walk.mismatch == nil, "\(walk)")
        #expect(walk.framesAtFullVolume > 24_000 && walk.framesAtHalfVolume > 24_000, "\(walk)")
        print(
            "pulse recording: probe at recording frame \(probeStart / 2) matched decoded frame \(offset)"
                + " (correlation \(correlation)); \(walk)")
    }

    /// Start-up: the first half second after the start, a resume, a seek or a rate change is left out (the stream
    /// settles: see AudioDeviceState.settling); then the audio clock minus the time of the frame on screen is
    /// sampled every 20 ms.
    @Test("the playing time follows the device: |avsync| <= 20 ms after start-up, through pause, seek and rate 2")
    func avsyncStaysSmall() async throws {
        let server = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PulseSupport.noiseClip(seconds: 10, in: directory)
        let player = Player(item: PlayerItem(url: clip), clock: .host, audioOutput: .pulse(sink: nil, server: server))
        defer { player.invalidate() }
        let log = EventLog(player)
        let summaries = player.metrics(forType: PlaybackSummaryEvent.self)
        #expect(try await log.wait(timeout: 5) { $0 == .audioOutput("pulse", error: nil) })
        try await waitUntil("the item to be ready to play") { player.currentItem?.status == .readyToPlay }
        var samples: [(phase: String, wall: Double, time: Double, avsync: Double)] = []
        var phase = "start"
        let start = ProcessRunner.monotonicSeconds()
        var sinceAction = start
        player.play()
        var paused = false
        var sought = false
        var fast = false
        var (previousTime, backwards) = (0.0, [Double]())
        while !log.contains({ $0 == .didPlayToEnd }), ProcessRunner.monotonicSeconds() - start < 20 {
            try await Task.sleep(for: .milliseconds(20))
            let now = ProcessRunner.monotonicSeconds()
            let time = player.currentTime().seconds
            // The playhead never goes back (the seek is forward; a device that starts late holds the picture).
            if time < previousTime - 0.000_5 { backwards.append(time) }
            previousTime = time
            if let avsync = player.avsync, player.timeControlStatus == .playing, now - sinceAction > 0.5 {
                samples.append((phase, now - start, time, avsync))
            }
            if !paused, time > 2 {
                paused = true
                player.pause()
                try await Task.sleep(for: .milliseconds(700))
                player.play()
                (phase, sinceAction) = ("after pause", ProcessRunner.monotonicSeconds())
            } else if !sought, time > 3.5 {
                sought = true
                _ = await player.seek(to: MediaTime(seconds: 5), toleranceBefore: .zero, toleranceAfter: .zero)
                (phase, sinceAction) = ("after seek", ProcessRunner.monotonicSeconds())
            } else if !fast, time > 6.5 {
                fast = true
                player.rate = 2
                (phase, sinceAction) = ("rate 2", ProcessRunner.monotonicSeconds())
            }
        }
        #expect(log.contains { $0 == .didPlayToEnd }, "the end of the 10 s clip within 20 s")
        #expect(player.isPlayingToAudioDevice)
        #expect(backwards.isEmpty, "the playhead went back to \(backwards)")
        for name in ["start", "after pause", "after seek", "rate 2"] {
            let offsets = samples.filter { $0.phase == name }.map { abs($0.avsync) }
            let worst = offsets.max() ?? .infinity
            let within = Double(offsets.filter { $0 <= 0.020 }.count) / Double(max(offsets.count, 1))
            let report =
                "avsync \(name): \(offsets.count) samples, \(Int(within * 100))% within 20 ms, max "
                + String(
                    format: "%.4f s, median %.4f s", worst, offsets.sorted().dropFirst(offsets.count / 2).first ?? .nan)
            print(report)
            // Within 20 ms; a sample or two over it on a loaded machine (the engine thread woke late), never
            // where viewers notice (45 ms).
            // Under a sanitizer this task samples too seldom to hold a figure (the plain pass holds it).
            if !Sanitizers.isActive {
                #expect(offsets.count >= 10 && within >= 0.95 && worst <= 0.045, "\(report)")
            }
        }
        // The session's summary metric carries it too.
        let summary = try await firstElement(of: summaries, "the session's summary metric")
        #expect(summary?.avsync.map { abs($0) < 0.045 } == true, "\(String(describing: summary?.avsync))")
        let statistics = player.avsyncStatistics
        print("avsync over every frame shown: \(statistics)")
    }

    @Test("a daemon killed mid-play: an event, the null device and the host clock, and the clip plays to its end")
    func serverKilledMidPlay() async throws {
        _ = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PulseSupport.noiseClip(seconds: 4, in: directory)
        let run = try await signalDaemonMidPlay(clip, SIGKILL, in: directory)
        defer { run.end() }
        #expect(run.log.contains { if case .audioOutput("null", .some) = $0 { true } else { false } })
        #expect(!run.player.isPlayingToAudioDevice)
        #expect(
            run.player.audioDeviceError?.kind == .connectionLost, "\(String(describing: run.player.audioDeviceError))")
        // The rest of the clip played on in real time: no hang, no rewind, no jump to the end.
        #expect(abs(run.toEnd - (4 - run.at)) < 0.4, "the end \(run.toEnd) s after the kill at \(run.at) s")
        #expect(run.player.currentTime().seconds > 3.9)
        print("pulse killed at \(run.at) s: \(run.log.audioOutputs), the end \(run.toEnd) s later")
    }

    @Test("a queue through the device: each item's audio in its own format, the clock following each in turn")
    func queueOfItems() async throws {
        let server = try PulseSupport.server()
        // b.mp4: AAC at 44.1 kHz, stereo; c.webm: Opus at 48 kHz, mono (a new stream for each format).
        let player = QueuePlayer(
            items: [PlayerItem(url: MediaFixtures.path("b.mp4")), PlayerItem(url: MediaFixtures.path("c.webm"))],
            clock: .host, audioOutput: .pulse(sink: nil, server: server))
        defer { player.invalidate() }
        let log = EventLog(player)
        #expect(try await log.wait(timeout: 5) { $0 == .audioOutput("pulse", error: nil) })
        player.play()
        var offsets: [String: [Double]] = [:]
        let start = ProcessRunner.monotonicSeconds()
        var changedAt = start
        var current = player.currentItem?.url
        while player.currentItem != nil, ProcessRunner.monotonicSeconds() - start < 15 {
            try await Task.sleep(for: .milliseconds(20))
            let now = ProcessRunner.monotonicSeconds()
            if player.currentItem?.url != current { (current, changedAt) = (player.currentItem?.url, now) }
            if let url = current, now - changedAt > 0.5, player.timeControlStatus == .playing,
                player.currentTime().seconds > 0.5,
                let avsync = player.avsync
            {
                offsets[(url as NSString).lastPathComponent, default: []].append(abs(avsync))
            }
        }
        // The queue is empty once its state says so; its last events are delivered just after.
        await player.callbacksDelivered()
        let ends = log.all.filter { $0.kind == .didPlayToEnd }.count
        #expect(ends == 2, "\(log.all.map(\.kind))")
        #expect(player.isPlayingToAudioDevice && player.audioDeviceError == nil)
        let elapsed = ProcessRunner.monotonicSeconds() - start
        #expect(elapsed < 9, "4 s and 3 s of media in \(elapsed) s")
        for name in ["b.mp4", "c.webm"] {
            let values = offsets[name] ?? []
            let within = Double(values.filter { $0 <= 0.020 }.count) / Double(max(values.count, 1))
            print(
                "queue through pulse: \(name): \(values.count) samples, \(Int(within * 100))% within 20 ms, max \(values.max() ?? .nan)"
            )
            // The plain pass holds the figure (a sanitizer's slowdown starves the sampling task).
            if !Sanitizers.isActive {
                #expect(values.count >= 10 && within >= 0.95 && (values.max() ?? 1) <= 0.045, "\(name): \(values)")
            }
        }
    }

    @Test("a stall (a throttled source): the device runs dry, the player waits, then follows the device again")
    func stallThroughTheDevice() async throws {
        let server = try PulseSupport.server()
        // a.mp4 is ~390 kB for 6 s; 30 kB/s of real time cannot keep up.
        let throttle = MediaThrottle(bytesPerSecond: 30_000, initialBytes: 100_000)
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"), throttle: throttle)
        let player = Player(item: item, clock: .host, audioOutput: .pulse(sink: nil, server: server))
        defer { player.invalidate() }
        let log = EventLog(player)
        #expect(try await log.wait(timeout: 5) { $0 == .audioOutput("pulse", error: nil) })
        player.play()
        #expect(try await log.wait(timeout: 10) { $0 == .stalled })
        let stalledAt = log.all.count
        throttle.setRate(1_000_000)
        let released = ProcessRunner.monotonicSeconds()
        while !log.all.dropFirst(stalledAt).contains(where: { $0.kind == .timeControlStatus(.playing, reason: nil) }),
            ProcessRunner.monotonicSeconds() - released < 10
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(
            log.all.dropFirst(stalledAt).contains { $0.kind == .timeControlStatus(.playing, reason: nil) },
            "playing again within 10 s of the throttle's release")
        // Playing again: past its start-up, the clock follows the device.
        let resumed = ProcessRunner.monotonicSeconds()
        var offsets: [Double] = []
        while !log.contains({ $0 == .didPlayToEnd }), ProcessRunner.monotonicSeconds() - resumed < 12 {
            try await Task.sleep(for: .milliseconds(20))
            if ProcessRunner.monotonicSeconds() - resumed > 0.7, player.timeControlStatus == .playing,
                let avsync = player.avsync
            {
                offsets.append(abs(avsync))
            }
        }
        #expect(log.contains { $0 == .didPlayToEnd }, "the end within 12 s of playing again")
        #expect(player.isPlayingToAudioDevice)
        let within = Double(offsets.filter { $0 <= 0.020 }.count) / Double(max(offsets.count, 1))
        print(
            "stall through pulse: \(offsets.count) samples after it, \(Int(within * 100))% within 20 ms, max \(offsets.max() ?? .nan)"
        )
        // The plain pass holds the figure (a sanitizer's slowdown starves the sampling task).
        if !Sanitizers.isActive {
            #expect(offsets.count >= 10 && within >= 0.95 && (offsets.max() ?? 1) <= 0.045, "\(offsets)")
        }
    }

    @Test("a daemon that stops answering (SIGSTOP) mid-play: nothing hangs, the clip ends on time")
    func serverHungMidPlay() async throws {
        _ = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let run = try await signalDaemonMidPlay(MediaFixtures.path("a.mp4"), SIGSTOP, in: directory)
        defer { run.end() }  // closing the connection to a stopped server does not wait for it
        // libpulse's interpolated timing runs on while the server is silent: the playhead too, in real time.
        #expect(abs(run.toEnd - (6 - run.at)) < 0.5, "the end \(run.toEnd) s after SIGSTOP at \(run.at) s")
        print("pulse stopped at \(run.at) s: \(run.log.audioOutputs), the end \(run.toEnd) s later")
    }

    /// Plays `clip` through a daemon of the test's own, sends the daemon `signal` once the playhead passes 1.5 s,
    /// and waits for the end (8 s at most): the player, its events, the playhead at the signal and the seconds from
    /// the signal to the end. `run.end()` invalidates the player, then kills the daemon.
    private func signalDaemonMidPlay(_ clip: String, _ signal: Int32, in directory: URL) async throws -> DaemonRun {
        let daemon = try await PulseServer.Private.start(in: directory.appendingPathComponent("pulse"))
        guard let pid = daemon.pid else { throw PulseServer.Failure(message: "the daemon wrote no pid file") }
        let player = Player(
            item: PlayerItem(url: clip), clock: .host, audioOutput: .pulse(sink: nil, server: daemon.address))
        let run = DaemonRun(player: player, log: EventLog(player), pid: pid)
        do {
            #expect(try await run.log.wait(timeout: 5) { $0 == .audioOutput("pulse", error: nil) })
            player.play()
            let started = ProcessRunner.monotonicSeconds()
            while player.currentTime().seconds < 1.5 {
                try #require(ProcessRunner.monotonicSeconds() - started < 15, "the playhead stayed before 1.5 s")
                try await Task.sleep(for: .milliseconds(10))
            }
            kill(pid, signal)
            let (at, wall) = (player.currentTime().seconds, ProcessRunner.monotonicSeconds())
            #expect(try await run.log.wait(timeout: 8) { $0 == .didPlayToEnd })
            run.at = at
            run.toEnd = ProcessRunner.monotonicSeconds() - wall
            return run
        } catch {
            run.end()
            throw error
        }
    }

    private final class DaemonRun: @unchecked Sendable {
        let player: Player
        let log: EventLog
        let pid: Int32
        var at = 0.0
        var toEnd = 0.0

        init(player: Player, log: EventLog, pid: Int32) {
            self.player = player
            self.log = log
            self.pid = pid
        }

        /// Invalidates the player, then kills the daemon.
        func end() {
            player.invalidate()
            kill(pid, SIGKILL)
        }
    }

    @Test("no server: an event with the error, and the clip plays on the null device")
    func serverMissing() async throws {
        try await playsOnWithout(.pulse(sink: nil, server: "unix:/nonexistent/playctl/native"), .serverUnavailable)
    }

    @Test("a sink that does not exist: an event with the error, and the clip plays on")
    func sinkMissing() async throws {
        try await playsOnWithout(.pulse(sink: "no_such_sink", server: try PulseSupport.server()), .deviceUnavailable)
    }

    /// Plays b.mp4 asking for `output`, which fails with `kind`: reported, then played to the end all the same.
    private func playsOnWithout(_ output: AudioOutput, _ kind: AudioDeviceError.Kind) async throws {
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audioOutput: output)
        defer { player.invalidate() }
        let log = EventLog(player)
        player.play()
        #expect(try await log.wait(timeout: 5) { if case .audioOutput("null", .some) = $0 { true } else { false } })
        #expect(player.audioDeviceError?.kind == kind, "\(String(describing: player.audioDeviceError))")
        #expect(try await log.wait(timeout: 8) { $0 == .didPlayToEnd })
    }
}
