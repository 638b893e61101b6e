import Foundation
import Loading
import Locking
import MediaCore
import MediaIO
import PlaybackTesting
import Streaming
import Testing

@testable import Playback

/// HLS subtitle renditions (`subs-hls/`, scripts/make-http-media.sh) played under the manual clock over nginx: listed
/// as legible options with the playlist's flags, their cues at the times the script wrote (X-TIMESTAMP-MAP applied),
/// each once, a switch between languages, a seek that reads the segments again (from the byte cache: one fetch each
/// on the wire), and missing or malformed input reported while the video plays on.
@Suite(
    "HLS subtitle renditions", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct SubtitleRenditionPlaybackTests {
    /// A manual-clock player (no audio) of `manifest` in a private copy of `subs-hls/`, loaded, its events logged.
    struct Session {
        let clock = ManualClock()
        let folder: String
        let item: PlayerItem
        let player: Player
        let events = Locked<[PlayerEvent]>([])
        let legible: MediaSelectionGroup

        init(_ manifest: String = "master.m3u8", prepare: (PlayerItem) -> Void = { _ in }) async throws {
            folder = try SubtitleRenditionMedia.privateCopy()
            item = PlayerItem(
                url: TestHTTPServer.url("\(folder)/\(manifest)"), loading: RemoteLoading(cache: ByteCache()))
            prepare(item)
            player = Player(clock: .manual(clock), audio: false)
            let stream = player.events()
            let events = self.events
            Task { for await event in stream { events.withLock { $0.append(event) } } }
            player.replaceCurrentItem(with: item)
            await clock.advance(by: .zero)
            #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
            legible = try #require(item.mediaSelectionGroup(for: .legible))
        }

        /// Advances in tenths of a second up to item time `seconds` (from the current time).
        /// Advances the clock until the playhead reaches `seconds` or the item ended, by at most `seconds` plus 5 s
        /// of clock time (the events that say it ended come through a task: the clock does not wait for it forever).
        func play(until seconds: Double) async {
            var advanced = 0.0
            while player.currentTime().seconds < seconds - 1e-9, !ended, advanced < seconds + 5 {
                let step = max(min(0.1, seconds - player.currentTime().seconds), 0.001)
                await clock.advance(bySeconds: step)
                advanced += step
            }
            await player.callbacksDelivered()
        }

        var ended: Bool { events.withLock { $0.contains { $0.kind.endsItem } } }

        /// The events logged once the one `what` waits for is there.
        func events(
            until what: String, _ done: @escaping @Sendable ([PlayerEvent]) -> Bool
        ) async throws
            -> [PlayerEvent]
        {
            let events = self.events
            try await waitUntil(what, timeout: .seconds(60)) { done(events.withLock { $0 }) }
            return events.withLock { $0 }
        }

        /// The cues shown, in order, with the item time each showed at.
        func cues(
            until what: String, _ done: @escaping @Sendable ([PlayerEvent]) -> Bool
        ) async throws
            -> [(cue: TextCue, at: MediaTime)]
        {
            SubtitleRenditionPlaybackTests.cues(in: try await events(until: what, done))
        }

        func option(_ name: String) throws -> MediaSelectionOption {
            try #require(legible.options.first { $0.displayName == name })
        }
    }

    /// The cues shown in `events`, in order, with the item time each showed at.
    static func cues(in events: [PlayerEvent]) -> [(cue: TextCue, at: MediaTime)] {
        events.compactMap { event in
            if case .cue(let cue) = event.kind { return (cue, event.itemTime) }
            return nil
        }
    }

    static func played(_ events: [PlayerEvent]) -> Bool { events.contains { $0.kind == .didPlayToEnd } }

    /// Whether `shown` are `expected`, exactly: times, texts, each shown at its start, none twice.
    static func check(_ shown: [(cue: TextCue, at: MediaTime)], _ expected: [SubtitleRenditionMedia.Cue]) {
        #expect(shown.count == expected.count, "\(shown.map { ($0.cue.start.seconds, $0.cue.text) })")
        for (got, want) in zip(shown, expected) {
            #expect(got.cue.start == want.start && got.cue.end == want.end, "\(got.cue) for \(want)")
            #expect(got.cue.text == want.text, "\(got.cue.text)")
            #expect(abs(got.at.seconds - want.start.seconds) < 1e-6, "\(got.cue.text) shown at \(got.at.seconds)")
        }
    }

    @Test("the group lists both renditions with the playlist's flags; the DEFAULT=YES one (French) plays its cues")
    func defaultRendition() async throws {
        let session = try await Session()
        defer { session.player.invalidate() }
        let options = session.legible.options
        #expect(options.map(\.displayName) == ["English", "Français"])
        #expect(options.map(\.languageCode) == ["en", "fr"] && options.map(\.codec) == ["webvtt", "webvtt"])
        #expect(options.map(\.isDefault) == [false, true] && options.map(\.isAutoselect) == [true, true])
        #expect(options.first?.source == .rendition(url: TestHTTPServer.url("\(session.folder)/en/index.m3u8")))
        #expect(session.item.currentMediaSelection.selectedMediaOption(in: session.legible)?.displayName == "Français")
        session.player.play()
        await session.play(until: 6.5)
        let shown = try await session.cues(until: "the item's end", Self.played)
        Self.check(shown, try SubtitleRenditionMedia.cues("fr"))
    }

    @Test("English selected: every cue at the time written, the one across a segment boundary once; each fetched once")
    func englishCues() async throws {
        let session = try await Session()
        defer { session.player.invalidate() }
        session.item.select(try session.option("English"), in: session.legible)
        session.player.play()
        await session.play(until: 6.5)
        let shown = try await session.cues(until: "the item's end", Self.played)
        Self.check(shown, try SubtitleRenditionMedia.cues("en"))
        #expect(shown.contains { $0.cue.markup == #"{\i1}Styled{\i0} English line."# }, "FFmpeg's WebVTT decoding")
        let requests = TestHTTPServer.responses(containing: "/\(session.folder)/en/")
        let paths = requests.compactMap {
            $0.request.split(separator: " ")[1].split(separator: "/").last.map(String.init)
        }
        #expect(paths.sorted() == ["index.m3u8", "seg0.vtt", "seg1.vtt", "seg2.vtt"], "\(requests)")
        #expect(requests.allSatisfy { $0.status == 200 || $0.status == 206 }, "\(requests)")
    }

    @Test("fMP4 media: the map relates the cues to its media timeline (its start at 0.045 s, in 90 kHz units)")
    func fragmentedMP4() async throws {
        let session = try await Session("master-fmp4.m3u8")
        defer { session.player.invalidate() }
        session.item.select(try session.option("English"), in: session.legible)
        session.player.play()
        await session.play(until: 6.5)
        let shown = try await session.cues(until: "the item's end", Self.played)
        Self.check(shown, try SubtitleRenditionMedia.cues("en"))
    }

    @Test("a switch to French at 2 s: English cues before, French from the one shown then")
    func switchesLanguage() async throws {
        let session = try await Session()
        defer { session.player.invalidate() }
        session.item.select(try session.option("English"), in: session.legible)
        session.player.play()
        await session.play(until: 2)
        session.item.select(try session.option("Français"), in: session.legible)
        await session.play(until: 6.5)
        let shown = try await session.cues(until: "the item's end", Self.played)
        let english = try SubtitleRenditionMedia.cues("en").filter { $0.start.seconds < 2 }
        let french = try SubtitleRenditionMedia.cues("fr").filter { $0.end.seconds > 2 }
        #expect(shown.map(\.cue.text) == (english + french).map(\.text), "\(shown.map(\.cue.text))")
        // The French cue shown at the switch (1.9 to 2.3 s) shows at once; the others at their starts.
        let later = shown.suffix(french.count)
        #expect(later.first.map { abs($0.at.seconds - 2) < 1e-6 } == true, "\(later.map(\.at.seconds))")
        #expect(
            zip(later.dropFirst(), french.dropFirst()).allSatisfy {
                $0.cue.start == $1.start && abs($0.at.seconds - $1.start.seconds) < 1e-6
            }, "\(later.map(\.at.seconds))")
    }

    @Test("a seek back re-reads the segments there (from the byte cache: each fetched once on the wire)")
    func seekRereads() async throws {
        let session = try await Session()
        defer { session.player.invalidate() }
        session.item.select(try session.option("English"), in: session.legible)
        session.player.play()
        await session.play(until: 4.5)
        let landed = await session.player.seek(
            to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(landed)
        await session.clock.advance(by: .zero)
        await session.play(until: 6.5)
        let shown = try await session.cues(until: "the item's end", Self.played)
        let english = try SubtitleRenditionMedia.cues("en")
        let before = english.filter { $0.start.seconds <= 4.5 }
        let after = english.filter { $0.end.seconds > 2 }
        #expect(shown.map(\.cue.text) == (before + after).map(\.text), "\(shown.map(\.cue.text))")
        // The cue across the boundary (1.8 to 2.6 s) shows again at the landing: its segment, left behind at 4.5 s,
        // was read again.
        #expect(shown.dropFirst(before.count).first.map { abs($0.at.seconds - 2) < 1e-6 } == true)
        let requests = TestHTTPServer.responses(containing: "/\(session.folder)/en/seg")
        #expect(requests.count == 3 && Set(requests.map(\.request)).count == 3, "\(requests.map(\.request))")
    }

    @Test("a rendition whose playlist is missing fails alone, naming it; the video plays to its end")
    func missingPlaylist() async throws {
        let session = try await Session("master-bad.m3u8")
        defer { session.player.invalidate() }
        session.item.select(try session.option("Missing"), in: session.legible)
        session.player.play()
        await session.play(until: 6.5)
        let events = try await session.events(until: "the item's end", Self.played)
        let failures = events.compactMap { event -> String? in
            if case .mediaOptionFailed(.legible, "Missing", let error) = event.kind { return error }
            return nil
        }
        #expect(failures.count == 1, "\(events.map(\.kind))")
        #expect(failures.first?.contains("\(session.folder)/missing/index.m3u8") == true, "\(failures)")
        #expect(failures.first?.contains("404") == true, "\(failures)")
        #expect(session.item.error(for: try session.option("Missing")) != nil)
    }

    @Test("a missing segment, one that is not WebVTT and a malformed cue are reported, naming them; the others show")
    func brokenSegments() async throws {
        let session = try await Session("master-bad.m3u8")
        defer { session.player.invalidate() }
        session.item.select(try session.option("Broken"), in: session.legible)
        session.player.play()
        await session.play(until: 6.5)
        let events = try await session.events(until: "the item's end", Self.played)
        Self.check(Self.cues(in: events), try SubtitleRenditionMedia.cues("bad"))
        let errors = events.compactMap { event -> String? in
            if case .decodeError(let error) = event.kind, error.hasPrefix("subtitles:") { return error }
            return nil
        }
        #expect(errors.count == 3, "\(errors)")
        #expect(
            errors.contains { $0.contains("\(session.folder)/bad/seg0.vtt") && $0.contains("1 of 2 cues not read") },
            "\(errors)")
        #expect(errors.contains { $0.contains("\(session.folder)/bad/seg1.vtt") && $0.contains("404") }, "\(errors)")
        #expect(errors.contains { $0.contains("\(session.folder)/bad/seg2.vtt") && $0.contains("WebVTT") }, "\(errors)")
    }
}

/// The rendition pipeline alone, over nginx: what it fetches follows the playhead, within its look-ahead and its
/// byte bound.
@Suite(
    "HLS subtitle renditions: look-ahead and byte bound",
    .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct SubtitleRenditionWindowTests {
    static func pipeline(byteLimit: Int, lookahead: Double) throws -> SubtitleRenditionPipeline {
        let folder = try SubtitleRenditionMedia.privateCopy()
        let rendition = Rendition(
            kind: .subtitles, groupID: "subs", name: "English", language: "en",
            media: .playlist(url: TestHTTPServer.url("\(folder)/en/index.m3u8")))
        let reader = SubtitleRenditionReader(rendition: rendition, loading: RemoteLoading(cache: ByteCache()))
        let option = MediaSelectionOption(
            source: .rendition(url: reader.playlistURL), characteristic: .legible, languageCode: "en", title: nil,
            codec: "webvtt")
        // The media's start as subs-hls/'s TS segments have it (the script maps cue times against it).
        let start = try Self.presentationStart()
        let pipeline = SubtitleRenditionPipeline(
            option: option, presentationStart: start, byteLimit: byteLimit, lookahead: MediaTime(seconds: lookahead),
            playlist: { () throws(MediaError) in try reader.playlist() },
            fetch: { (segment: Segment) throws(MediaError) in try reader.bytes(of: segment) }, onChange: {})
        pipeline.start(name: "test")
        return pipeline
    }

    /// The earliest first PTS of subs-hls/v/seg0.ts, as playctl's demuxer takes the media's start.
    static func presentationStart() throws -> MediaTime {
        let directory = try #require(SubtitleRenditionMedia.directory)
        let demuxer = try Demuxer(url: "\(directory)/v/seg0.ts")
        return MediaTime(value: demuxer.startTime, timescale: 1_000_000).convertScale(90_000)
    }

    /// Moves the playhead to `seconds` and waits until the pipeline is idle.
    static func move(_ pipeline: SubtitleRenditionPipeline, to seconds: Double) async throws {
        pipeline.playheadMoved(to: MediaTime(seconds: seconds))
        try await waitUntil("the subtitle pipeline idle at \(seconds) s", timeout: .seconds(30)) {
            pipeline.snapshot().isSettled
        }
    }

    @Test("segments are fetched as the playhead comes within the look-ahead of them")
    func lookahead() async throws {
        let pipeline = try Self.pipeline(byteLimit: SubtitleRenditionPipeline.defaultByteLimit, lookahead: 2)
        defer { pipeline.stop() }
        try await Self.move(pipeline, to: 0)
        #expect(pipeline.fetches == [0])
        try await Self.move(pipeline, to: 0.5)
        #expect(pipeline.fetches == [0, 1])
        try await Self.move(pipeline, to: 2.5)
        #expect(pipeline.fetches == [0, 1, 2])
        // Far back: a seek; the window is read again.
        pipeline.seek(to: MediaTime(seconds: 0.2))
        try await Self.move(pipeline, to: 0.2)
        #expect(pipeline.fetches == [0, 1, 2, 0, 1])
        #expect(pipeline.shown(at: MediaTime(seconds: 0.5)).map(\.text) == ["Hello from the first segment."])
    }

    @Test("below its byte bound: one segment at a time when each fills it, every cue still read before its start")
    func byteBound() async throws {
        let pipeline = try Self.pipeline(byteLimit: 1, lookahead: 10)
        defer { pipeline.stop() }
        let cues = try SubtitleRenditionMedia.cues("en")
        var largest = 0
        try await Self.move(pipeline, to: 0)
        #expect(pipeline.fetches == [0], "one segment fills the bound")
        largest = max(largest, pipeline.heldBytes)
        for step in 1...60 {
            let time = Double(step) / 10
            try await Self.move(pipeline, to: time)
            largest = max(largest, pipeline.heldBytes)
            for cue in cues where cue.start.seconds <= time && time < cue.end.seconds {
                let shown = pipeline.shown(at: MediaTime(seconds: time)).map(\.text)
                #expect(shown.contains(cue.text), "\(cue.text) at \(time)")
            }
        }
        #expect(pipeline.fetches == [0, 1, 2])
        // The bound: below it plus one segment's cues (two cues of at most 40 bytes of text, twice, plus overhead).
        let segmentCost = 2 * (2 * 40 + SubtitleRenditionPipeline.cueOverhead)
        #expect(pipeline.peakBytes <= 1 + segmentCost && largest > 0, "\(pipeline.peakBytes)")
        #expect(pipeline.heldBytes == 0, "every cue passed is dropped")
    }
}
