import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Timed text: cues at their times, after seeks, at rate 2, under the manual clock")
struct TimedTextTests {
    /// A loaded manual-clock player (no audio) of `clip`, a legible output on the item, a trace recorder, and the
    /// legible option `index` (of the group, sidecars last) selected.
    struct Session {
        let clock = ManualClock()
        let item: PlayerItem
        let cues = CueLog()
        let player: Player
        let recorder: TraceRecorder
        let legible: MediaSelectionGroup

        init(_ clip: String, option index: Int, sidecar: SidecarSubtitle? = nil) async throws {
            item = PlayerItem(url: TrackClips.path(clip))
            if let sidecar { item.addSidecarSubtitle(sidecar) }
            item.add(cues.output)
            player = await TrackSupport.player(item, clock: clock, audio: false)
            recorder = TraceRecorder(player)
            legible = try #require(item.mediaSelectionGroup(for: .legible))
            item.select(legible.options[index], in: legible)
        }

        /// Advances `steps` tenths of a second, then waits for the callbacks.
        func advance(steps: Int) async {
            for _ in 0..<steps { await clock.advance(bySeconds: 0.1) }
            await player.callbacksDelivered()
        }
    }

    /// Plays `clip` with its legible option `index` selected, in 0.1 s steps to the end; returns the trace, the
    /// legible output's changes and the player.
    static func run(
        _ clip: String, option index: Int, rate: Float = 1, sidecar: SidecarSubtitle? = nil, steps: Int = 45
    ) async throws -> (trace: [String], cues: CueLog, player: Player, item: PlayerItem) {
        let session = try await Session(clip, option: index, sidecar: sidecar)
        session.player.defaultRate = rate
        session.player.play()
        await session.advance(steps: steps)
        return (await session.recorder.snapshot(), session.cues, session.player, session.item)
    }

    static func cueEvents(_ trace: [String]) -> [String] {
        trace.filter { $0.contains(" cue ") }
    }

    @Test(
        "each cue is an event at its start; the output gets the cues shown as they change", arguments: TrackClips.clips)
    func cues(clip: String) async throws {
        let run = try await Self.run(clip, option: 0)
        defer { run.player.invalidate() }
        let offset = TrackClips.mediaOffset(clip)
        let expected = TrackClips.englishCues.map { $0.shifted(by: offset) }
        let events = Self.cueEvents(run.trace)
        #expect(events.count == 3, "\(run.trace)")
        for (event, cue) in zip(events, expected) {
            // Shown at its start: the clock stops there (host time = item time at rate 1, from 0).
            #expect(event.hasPrefix(String(format: "[%.3f t=%.3f] cue", cue.start, cue.start)), "\(event)")
            #expect(event.hasSuffix(cue.text.replacingOccurrences(of: "\n", with: "|")), "\(event)")
        }
        let changes = run.cues.changes
        #expect(changes.map(\.texts) == [["Hello, world."], [], ["Second line\non two rows."], [], ["The end."], []])
        let times = expected.flatMap { [$0.start, $0.end] }
        #expect(zip(changes.map(\.time), times).allSatisfy { abs($0 - $1) < 0.000_01 }, "\(changes.map(\.time))")
        #expect(run.item.currentMediaSelection[.legible]?.trackIndex == 3)
    }

    @Test("the ASS track of the Matroska file: styled runs and style names reach the output")
    func styledCues() async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: TrackClips.path("tracks.mkv"))
        let shown = Locked<[TextCue]>([])
        item.add(PlayerItemLegibleOutput { cues, _ in shown.withLock { $0 += cues } })
        let player = await TrackSupport.player(item, clock: clock, audio: false)
        defer { player.invalidate() }
        let legible = try #require(item.mediaSelectionGroup(for: .legible))
        item.select(legible.options[1], in: legible)
        player.play()
        for _ in 0..<40 { await clock.advance(bySeconds: 0.1) }
        await player.callbacksDelivered()
        let cues = shown.withLock { $0 }
        #expect(cues.map(\.style) == ["Default", "Sign"])
        #expect(cues.first?.runs.map(\.isItalic) == [false, true, false])
        #expect(cues.last?.runs.first == StyledRun(text: "Deuxième", isBold: true))
    }

    @Test("the same trace on every run")
    func deterministic() async throws {
        var traces: [[String]] = []
        for _ in 0..<5 {
            let run = try await Self.run("tracks.mkv", option: 1)
            traces.append(run.trace + run.cues.lines)
            run.player.invalidate()
        }
        #expect(Set(traces.map { $0.joined(separator: "\n") }).count == 1, "\(traces)")
        #expect(Self.cueEvents(traces[0]).count == 2)
    }

    @Test("cues follow seeks: a seek into a cue shows it at once, a seek back shows earlier cues again")
    func seeks() async throws {
        let session = try await Session("tracks.mp4", option: 0)
        let (clock, player, log) = (session.clock, session.player, session.cues)
        defer { player.invalidate() }
        player.play()
        await clock.advance(bySeconds: 0.2)
        #expect(await player.seek(to: MediaTime(seconds: 2.4), toleranceBefore: .zero, toleranceAfter: .zero))
        await player.callbacksDelivered()
        #expect(log.changes.last?.texts == ["Second line\non two rows."])
        #expect(abs((log.changes.last?.time ?? 0) - 2.4) < 0.000_01)
        await clock.advance(bySeconds: 0.7)  // to 3.1: the cue ended at 3.0
        await player.callbacksDelivered()
        #expect(log.changes.last?.texts == [])
        #expect(await player.seek(to: MediaTime(seconds: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        await player.callbacksDelivered()
        #expect(log.changes.last?.texts == ["Hello, world."])
        let cues = TimedTextTests.cueEvents(await session.recorder.snapshot())
        // The cue at 2.4 s, then (3.1 s shows none) the first one again after the seek back.
        #expect(cues.count == 2, "\(cues)")
        #expect(cues.map { $0.hasSuffix("Hello, world.") } == [false, true])
    }

    @Test("at rate 2 each cue comes at half its media time on the clock")
    func rateTwo() async throws {
        let run = try await Self.run("tracks.mp4", option: 0, rate: 2, steps: 25)
        defer { run.player.invalidate() }
        let events = Self.cueEvents(run.trace)
        #expect(events.count == 3, "\(run.trace)")
        for (event, cue) in zip(events, TrackClips.englishCues) {
            #expect(event.hasPrefix(String(format: "[%.3f t=%.3f] cue", cue.start / 2, cue.start)), "\(event)")
        }
        #expect(run.cues.changes.count == 6)
    }

    @Test("a sidecar WebVTT file: its cues, listed after the container's tracks")
    func sidecar() async throws {
        let sidecar = SidecarSubtitle(url: TrackClips.path("tracks.vtt"), languageCode: "en")
        let run = try await Self.run("tracks.mp4", option: 2, sidecar: sidecar)
        defer { run.player.invalidate() }
        #expect(run.item.currentMediaSelection[.legible]?.source == .sidecar(url: TrackClips.path("tracks.vtt")))
        let shown = run.cues.changes.filter { !$0.texts.isEmpty }
        #expect(shown.map(\.texts) == TrackClips.sidecarCues.map { [$0.text] })
        #expect(zip(shown.map(\.time), TrackClips.sidecarCues.map(\.start)).allSatisfy { abs($0 - $1) < 0.000_01 })
    }

    @Test("a sidecar that is missing or not subtitles fails alone: an event, the option marked, playback goes on")
    func brokenSidecar() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.srt").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(
            to: URL(fileURLWithPath: garbage))
        for path in [directory.appendingPathComponent("missing.srt").path, garbage, MediaFixtures.path("b.mp4")] {
            let run = try await Self.run("tracks.mp4", option: 2, sidecar: SidecarSubtitle(url: path))
            defer { run.player.invalidate() }
            let failed = run.trace.filter { $0.contains("mediaOptionFailed legible") }
            #expect(failed.count == 1 && failed.first?.contains(path) == true, "\(run.trace)")
            let option = try #require(run.item.mediaSelectionGroup(for: .legible)?.options[2])
            #expect(run.item.error(for: option)?.url == path)
            #expect(run.trace.contains { $0.contains("didPlayToEnd") }, "\(run.trace)")
            #expect(run.item.status == .readyToPlay)
            #expect(run.cues.changes.isEmpty)
        }
    }

    @Test("switching subtitles while playing, and turning them off")
    func switchWhilePlaying() async throws {
        let session = try await Session("tracks.mp4", option: 0)
        let (clock, player, log, item, legible) = (
            session.clock, session.player, session.cues, session.item, session.legible
        )
        defer { player.invalidate() }
        player.play()
        for _ in 0..<12 { await clock.advance(bySeconds: 0.1) }  // 1.2 s: both tracks show a cue
        item.select(legible.options[1], in: legible)
        await clock.advance(by: .zero)
        await player.callbacksDelivered()
        #expect(log.changes.suffix(2).map(\.texts) == [[], ["Bonjour, le monde."]], "\(log.lines)")
        item.select(nil, in: legible)
        await clock.advance(by: .zero)
        await player.callbacksDelivered()
        #expect(log.changes.last?.texts == [])
        #expect(item.currentMediaSelection[.legible] == nil)
        for _ in 0..<30 { await clock.advance(bySeconds: 0.1) }
        await player.callbacksDelivered()
        #expect(log.changes.last?.texts == [])
    }

    @Test("a subtitle track of the container whose data cannot be decoded fails alone; the other track still shows")
    func brokenContainerTrack() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TrackClips.latin1Copy(in: directory)
        let clock = ManualClock()
        let item = PlayerItem(url: path)
        let log = CueLog()
        item.add(log.output)
        let player = await TrackSupport.player(item, clock: clock, audio: false)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        let legible = try #require(item.mediaSelectionGroup(for: .legible))
        item.select(legible.options[0], in: legible)
        player.play()
        for _ in 0..<10 { await clock.advance(bySeconds: 0.1) }
        let error = try #require(item.error(for: legible.options[0]))
        #expect(error.kind == .decodeFailed && error.url == path, "\(error)")
        item.select(legible.options[1], in: legible)
        for _ in 0..<35 { await clock.advance(bySeconds: 0.1) }
        await player.callbacksDelivered()
        let trace = await recorder.snapshot()
        #expect(trace.filter { $0.contains("mediaOptionFailed legible English") }.count == 1, "\(trace)")
        #expect(trace.contains { $0.contains("didPlayToEnd") })
        // Selected at 1 s: the French cue of 0.721-1.721 s shows at once, then the second.
        let shown = log.changes.filter { !$0.texts.isEmpty }.map(\.texts)
        #expect(shown == [["Bonjour, le monde."], ["Deuxième\nligne."]], "\(log.lines)")
        #expect(item.error(for: legible.options[1]) == nil)
    }

    @Test("bitmap subtitles are listed, not rendered: never chosen by themselves; selected, they fail alone")
    func bitmapSubtitles() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TrackClips.bitmapCopy(in: directory)
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        // French audio would bring the forced French subtitles, but they are pictures now.
        player.setMediaSelectionCriteria(
            MediaSelectionCriteria(preferredLanguages: ["fra"]), forMediaCharacteristic: .audible)
        let item = await TrackSupport.load(path, into: player, clock: clock)
        let recorder = TraceRecorder(player)
        let legible = try #require(item.mediaSelectionGroup(for: .legible))
        let pgs = legible.options[1]
        #expect(pgs.codec == "hdmv_pgs_subtitle" && !pgs.isPlayable && pgs.isForced)
        #expect(item.currentMediaSelection[.legible] == nil)
        item.select(pgs, in: legible)
        player.play()
        for _ in 0..<45 { await clock.advance(bySeconds: 0.1) }
        let trace = await recorder.snapshot()
        let failed = trace.filter { $0.contains("mediaOptionFailed legible") }
        #expect(failed.count == 1 && failed.first?.contains("not rendered") == true, "\(trace)")
        #expect(item.error(for: pgs)?.kind == .unsupportedCodec)
        #expect(!trace.contains { $0.contains(" cue ") } && trace.contains { $0.contains("didPlayToEnd") })
    }
}
