import Foundation
import Locking
import Playback
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// `AVMediaSelectionGroup`, `AVMediaSelectionOption`, `AVMediaSelection` and the selection calls of `AVAsset`,
/// `AVPlayerItem` and `AVPlayer`, as Apple documents them, on Media/tracks/tracks.mp4 (English and French audio,
/// English and French mov_text subtitles, none shown by default).
@Suite("AVMediaSelectionGroup and the selection calls")
struct MediaSelectionTests {
    static let url = URL(fileURLWithPath: TrackClips.path("tracks.mp4"))

    @Test("an asset's groups: the options, their languages and names, the defaults, the filters")
    func assetGroups() async throws {
        let asset = AVURLAsset(url: Self.url)
        #expect(try await asset.load(.availableMediaCharacteristicsWithMediaSelectionOptions) == [.audible, .legible])
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(try await asset.loadMediaSelectionGroup(for: .visual) == nil)
        #expect(audible.options.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(audible.options.map(\.displayName) == ["English", "French"])
        #expect(audible.options.map { $0.locale?.identifier } == ["en", "fr"])
        #expect(audible.options.allSatisfy { $0.mediaType == .audio && $0.hasMediaCharacteristic(.audible) })
        #expect(!audible.options.contains { $0.hasMediaCharacteristic(.legible) })
        #expect(audible.defaultOption == audible.options[0] && !audible.allowsEmptySelection)
        #expect(legible.options.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(legible.options.allSatisfy { $0.mediaType == .subtitle && $0.isPlayable })
        #expect(legible.defaultOption == nil && legible.allowsEmptySelection)
        // The same group read again (the synchronous getter) is equal, option for option.
        #expect(asset.mediaSelectionGroup(forMediaCharacteristic: .legible) == legible)
        let (english, french) = (legible.options[0], legible.options[1])
        #expect(
            AVMediaSelectionGroup.mediaSelectionOptions(
                from: legible.options, filteredAndSortedAccordingToPreferredLanguages: ["fra", "English"])
                == [french, english])
        #expect(
            AVMediaSelectionGroup.mediaSelectionOptions(from: legible.options, with: Locale(identifier: "fr_CA")) == [
                french
            ])
        #expect(
            AVMediaSelectionGroup.mediaSelectionOptions(
                from: legible.options, withMediaCharacteristics: [.containsOnlyForcedSubtitles]
            ).isEmpty)
        #expect(
            AVMediaSelectionGroup.mediaSelectionOptions(
                from: legible.options + audible.options, withoutMediaCharacteristics: [.audible]) == legible.options)
        #expect(AVMediaSelectionGroup.playableMediaSelectionOptions(from: legible.options) == legible.options)
        #expect(legible.mediaSelectionOption(withPropertyList: french.propertyList()) == french)
        #expect(audible.mediaSelectionOption(withPropertyList: french.propertyList()) == nil, "another kind")
        // Every combination: two audio options by three subtitle choices (none included).
        #expect(asset.allMediaSelections.count == 6)
        let preferred = asset.preferredMediaSelection
        #expect(preferred.selectedMediaOption(in: audible) == audible.options[0])
        #expect(preferred.selectedMediaOption(in: legible) == nil)
    }

    @Test("an option of the asset's group selects that track in the playing item: its cues show; automatic undoes it")
    func selectThroughThePlayer() async throws {
        let driver = ClockDriver()
        let cues = Locked<[String]>([])
        let notes = Locked(0)
        try await driver.run {
            let asset = AVURLAsset(url: Self.url)
            let item = AVPlayerItem(asset: asset)
            // This item's (other suites' items post it too, beside this one).
            let observer = NotificationCenter.default.addObserver(
                forName: AVPlayerItem.mediaSelectionDidChangeNotification, object: item, queue: nil
            ) { _ in notes.withLock { $0 += 1 } }
            defer { NotificationCenter.default.removeObserver(observer) }
            item.playctlItem.add(
                PlayerItemLegibleOutput { shown, _ in
                    cues.withLock { $0 += shown.map(\.text) }
                })
            let player = AVPlayer(playerItem: item)
            await driver.advance(by: 0.1)
            let group = try #require(item.mediaSelectionGroup(for: .legible))
            #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil, "no subtitles by default")
            #expect(item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: group))
            let assetGroup = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
            item.select(assetGroup.options[1], in: assetGroup)
            #expect(item.currentMediaSelection.selectedMediaOption(in: group)?.extendedLanguageTag == "fr")
            #expect(item.selectedMediaOption(for: .legible) == assetGroup.options[1])
            #expect(!item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: group))
            player.play()
            await driver.advance(by: 4)
            player.pause()
            #expect(
                Set(cues.withLock { $0 }) == Set(TrackClips.frenchCuesMP4.map(\.text)),
                "the French track's cues: \(cues.withLock { $0 })")
            item.selectMediaOptionAutomatically(in: group)
            #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
            #expect(item.currentMediaSelection.mediaSelectionCriteriaCanBeAppliedAutomatically(to: group))
        }
        #expect(notes.withLock { $0 } == 2)
    }

    @Test("the player's criteria choose the subtitles of an item loaded afterwards")
    func criteria() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let player = AVPlayer()
            #expect(player.appliesMediaSelectionCriteriaAutomatically)
            player.setMediaSelectionCriteria(
                AVPlayerMediaSelectionCriteria(preferredLanguages: ["fr"], preferredMediaCharacteristics: nil),
                forMediaCharacteristic: .legible)
            #expect(player.mediaSelectionCriteria(forMediaCharacteristic: .legible)?.preferredLanguages == ["fr"])
            #expect(player.mediaSelectionCriteria(forMediaCharacteristic: .audible) == nil)
            let item = AVPlayerItem(url: Self.url)
            player.replaceCurrentItem(with: item)
            await driver.advance(by: 0.1)
            #expect(item.selectedMediaOption(for: .legible)?.extendedLanguageTag == "fr")
            #expect(item.selectedMediaOption(for: .audible)?.extendedLanguageTag == "en", "the default audio")
        }
    }
}
