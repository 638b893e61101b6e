import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Media selection: audio languages and subtitles")
struct MediaSelectionTests {
    @Test(
        "the groups list every audio and subtitle option, sidecars last; audio plays its default",
        arguments: TrackClips.clips)
    func groups(clip: String) async throws {
        let clock = ManualClock()
        let item = PlayerItem(url: TrackClips.path(clip))
        item.addSidecarSubtitle(SidecarSubtitle(url: TrackClips.path("tracks.vtt"), languageCode: "de", title: "Extra"))
        let player = await TrackSupport.player(item, clock: clock)
        defer { player.invalidate() }
        #expect(item.status == .readyToPlay)
        let audible = try #require(item.mediaSelectionGroup(for: .audible))
        let legible = try #require(item.mediaSelectionGroup(for: .legible))
        #expect(audible.options.map(\.languageCode) == ["eng", "fra"])
        // The Matroska file titles its tracks; MP4 has no titles: their languages name them.
        #expect(audible.options.map(\.displayName) == ["English", clip.hasSuffix(".mkv") ? "Français" : "French"])
        #expect(audible.options.map(\.channels) == [2, 2])
        #expect(!audible.allowsEmptySelection && legible.allowsEmptySelection)
        #expect(audible.defaultOption == audible.options[0])
        #expect(legible.options.map(\.languageCode) == ["eng", "fra", "de"])
        #expect(legible.options.map(\.trackIndex) == [3, 4, nil])
        #expect(legible.options[2].displayName == "Extra" && legible.options[2].codec == "webvtt")
        #expect(legible.options.allSatisfy { $0.isPlayable })
        #expect(
            legible.options(filteredAndSortedAccordingToPreferredLanguages: ["German", "fr"]).map(\.languageCode) == [
                "de", "fra",
            ])
        let selection = item.currentMediaSelection
        #expect(selection.selectedMediaOption(in: audible) == audible.options[0])
        #expect(selection.selectedMediaOption(in: legible) == nil, "no subtitles unless asked for")
    }

    @Test("preferred languages select French audio and subtitles when the item loads; French audio, forced subtitles")
    func criteria() async throws {
        let clock = ManualClock()
        let player = Player(clock: .manual(clock))
        defer { player.invalidate() }
        player.setMediaSelectionCriteria(
            MediaSelectionCriteria(preferredLanguages: ["fr"]), forMediaCharacteristic: .audible)
        player.setMediaSelectionCriteria(
            MediaSelectionCriteria(preferredLanguages: ["es", "fr-FR"]), forMediaCharacteristic: .legible)
        let item = await TrackSupport.load("tracks.mp4", into: player, clock: clock)
        #expect(item.currentMediaSelection[.audible]?.languageCode == "fra")
        #expect(item.currentMediaSelection[.legible]?.languageCode == "fra")
        // Without criteria applied, the default audio; no subtitles.
        player.appliesMediaSelectionCriteriaAutomatically = false
        let other = await TrackSupport.load("tracks.mp4", into: player, clock: clock)
        #expect(other.currentMediaSelection[.audible]?.languageCode == "eng")
        #expect(other.currentMediaSelection[.legible] == nil)
        // French audio brings the forced French subtitles of the Matroska file by itself.
        player.appliesMediaSelectionCriteriaAutomatically = true
        player.setMediaSelectionCriteria(nil, forMediaCharacteristic: .legible)
        let forced = await TrackSupport.load("tracks.mkv", into: player, clock: clock)
        let legible = try #require(forced.currentMediaSelection[.legible])
        #expect(legible.isForced && legible.trackIndex == 4)
    }

    @Test("French selected before playing: every sample played is the French track's", arguments: TrackClips.clips)
    func selectBeforePlaying(clip: String) async throws {
        let session = try await AudioSession(clip)
        let (item, player, audio, audible) = (session.item, session.player, session.audio, session.audible)
        defer { player.invalidate() }
        item.select(audible.options[1], in: audible)
        player.play()
        await session.advance(steps: 10)
        let french = try TrackSupport.reference(clip, stream: 2)
        let received = audio.received
        #expect(received.count > 20)
        #expect(received.allSatisfy { TrackSupport.matches($0, french) }, "\(clip)")
        #expect(item.currentMediaSelection[.audible] == audible.options[1])
    }

    @Test(
        "switching audio while playing: the new track continues where the old one stopped, no seek",
        arguments: TrackClips.clips)
    func switchWhilePlaying(clip: String) async throws {
        let session = try await AudioSession(clip)
        let (item, player, audio, audible) = (session.item, session.player, session.audio, session.audible)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        player.play()
        await session.advance(steps: 10)
        let switchedAfter = audio.received.count
        item.select(audible.options[1], in: audible)
        await session.advance(steps: 10)
        let received = audio.received
        let english = try TrackSupport.reference(clip, stream: 1)
        let french = try TrackSupport.reference(clip, stream: 2)
        #expect(received[..<switchedAfter].allSatisfy { TrackSupport.matches($0, english) })
        #expect(received[switchedAfter...].allSatisfy { TrackSupport.matches($0, french) })
        // Continuous: each buffer starts where the previous one ended (no gap, no overlap, no seek).
        for (previous, next) in zip(received, received.dropFirst()) {
            #expect(
                abs((previous.time + previous.duration - next.time).seconds) < 1.0 / 48_000,
                "\(previous.time) \(next.time)")
        }
        let trace = await recorder.snapshot()
        #expect(!trace.contains { $0.contains("seek") || $0.contains("timeJumped") }, "\(trace)")
        #expect(trace.contains { $0.hasSuffix("mediaSelection audible \(audible.options[1].displayName)") }, "\(trace)")
        #expect(abs(player.currentTime().seconds - 2) < 0.001)
    }

    @Test("a switch asked for while a seek is in flight: the new track plays from where the seek lands")
    func switchDuringSeek() async throws {
        let session = try await AudioSession("tracks.mp4")
        let (item, player, audio, audible) = (session.item, session.player, session.audio, session.audible)
        defer { player.invalidate() }
        player.play()
        await session.advance(steps: 5)
        let before = audio.received.count
        let landed = FirstResult()
        player.seek(to: MediaTime(seconds: 2.5), toleranceBefore: .zero, toleranceAfter: .zero) { landed.set($0) }
        item.select(audible.options[1], in: audible)
        await session.advance(steps: 5)
        #expect(landed.value == true)
        let after = Array(audio.received[before...])
        let french = try TrackSupport.reference("tracks.mp4", stream: 2)
        #expect(
            after.first.map { abs($0.time.seconds - 2.5) < 1.0 / 48_000 } == true,
            "\(String(describing: after.first?.time))")
        #expect(after.allSatisfy { TrackSupport.matches($0, french) })
    }
}
