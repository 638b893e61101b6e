import Foundation
import Playback

/// The options of one kind an asset or item offers, one of which plays at a time, as AVFoundation's
/// `AVMediaSelectionGroup` (over the engine's ``playctlGroup``): its audio tracks, or its subtitles.
public final class AVMediaSelectionGroup: NSObject, @unchecked Sendable {
    /// The engine's group.
    public let playctlGroup: MediaSelectionGroup
    /// The options, container tracks in stream order, then HLS renditions and sidecar files.
    public let options: [AVMediaSelectionOption]

    /// The group for the engine's `group`.
    public init(playctlGroup group: MediaSelectionGroup) {
        playctlGroup = group
        options = group.options.map(AVMediaSelectionOption.init(playctlOption:))
        super.init()
    }

    /// What plays when nothing else decides: for audio the track marked default (else the first playable one); for
    /// subtitles a sidecar file or HLS rendition marked default, else none.
    public var defaultOption: AVMediaSelectionOption? {
        playctlGroup.defaultOption.map(AVMediaSelectionOption.init(playctlOption:))
    }

    /// Whether selecting no option is allowed: true for subtitles, false for audio.
    public var allowsEmptySelection: Bool { playctlGroup.allowsEmptySelection }

    /// The option of this group that `propertyList` (from ``AVMediaSelectionOption/propertyList()``) names, if any.
    public func mediaSelectionOption(withPropertyList propertyList: Any) -> AVMediaSelectionOption? {
        guard let list = propertyList as? [String: String] else { return nil }
        return options.first { ($0.propertyList() as? [String: String]) == list }
    }

    /// The options of `options` the engine can play.
    public static func playableMediaSelectionOptions(from options: [AVMediaSelectionOption]) -> [AVMediaSelectionOption]
    {
        options.filter(\.isPlayable)
    }

    /// The options of `options` in one of `preferredLanguages` (`fr`, `fra`, `fr-CA` or `French`), options of the
    /// first language first.
    public static func mediaSelectionOptions(
        from options: [AVMediaSelectionOption],
        filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMediaSelectionOption] {
        let group = MediaSelectionGroup(
            characteristic: options.first?.playctlOption.characteristic ?? .legible,
            options: options.map(\.playctlOption))
        return group.options(filteredAndSortedAccordingToPreferredLanguages: preferredLanguages).compactMap { option in
            options.first { $0.playctlOption == option }
        }
    }

    /// The options of `options` in `locale`'s language.
    public static func mediaSelectionOptions(
        from options: [AVMediaSelectionOption], with locale: Locale
    ) -> [AVMediaSelectionOption] {
        guard let language = locale.language.languageCode?.identifier else { return [] }
        return options.filter { $0.playctlOption.hasLanguage(language) }
    }

    /// The options of `options` that offer every one of `characteristics`.
    public static func mediaSelectionOptions(
        from options: [AVMediaSelectionOption], withMediaCharacteristics characteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        options.filter { option in characteristics.allSatisfy(option.hasMediaCharacteristic) }
    }

    /// The options of `options` that offer none of `characteristics`.
    public static func mediaSelectionOptions(
        from options: [AVMediaSelectionOption], withoutMediaCharacteristics characteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        options.filter { option in !characteristics.contains(where: option.hasMediaCharacteristic) }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? AVMediaSelectionGroup)?.playctlGroup == playctlGroup
    }

    public override var hash: Int { playctlGroup.hashValue }
}

/// Which option of each group is selected, as AVFoundation's `AVMediaSelection` (``AVPlayerItem/currentMediaSelection``,
/// ``AVAsset/preferredMediaSelection``).
public final class AVMediaSelection: NSObject, @unchecked Sendable {
    /// The engine's selection.
    public let playctlSelection: MediaSelection
    /// The asset it is of.
    public let asset: AVAsset?
    /// The characteristics whose option the app chose itself (``AVPlayerItem/select(_:in:)``).
    private let chosen: Set<MediaCharacteristic>

    init(_ selection: MediaSelection, asset: AVAsset?, chosen: Set<MediaCharacteristic> = []) {
        playctlSelection = selection
        self.asset = asset
        self.chosen = chosen
        super.init()
    }

    /// The option selected in `group`; nil when none is (no subtitles, or nothing loaded yet).
    public func selectedMediaOption(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        playctlSelection.selectedMediaOption(in: group.playctlGroup).map(AVMediaSelectionOption.init(playctlOption:))
    }

    /// Whether the player's criteria may choose in `group`: false once the app selected an option there itself.
    public func mediaSelectionCriteriaCanBeAppliedAutomatically(to group: AVMediaSelectionGroup) -> Bool {
        !chosen.contains(group.playctlGroup.characteristic)
    }
}

/// The languages a player prefers for a characteristic, as AVFoundation's `AVPlayerMediaSelectionCriteria`
/// (``AVPlayer/setMediaSelectionCriteria(_:forMediaCharacteristic:)``).
public final class AVPlayerMediaSelectionCriteria: NSObject, @unchecked Sendable {
    /// Languages in order of preference (`fr`, `fra`, `fr-CA` or `French`).
    public let preferredLanguages: [String]?
    /// Characteristics preferred among the options of a language (kept; the engine's criteria are languages).
    public let preferredMediaCharacteristics: [AVMediaCharacteristic]?

    public init(preferredLanguages: [String]?, preferredMediaCharacteristics: [AVMediaCharacteristic]?) {
        self.preferredLanguages = preferredLanguages
        self.preferredMediaCharacteristics = preferredMediaCharacteristics
        super.init()
    }
}
