/// The options of one kind an item offers, of which one plays at a time, like `AVMediaSelectionGroup`: its audio
/// tracks (``MediaCharacteristic/audible``), or its subtitle tracks and sidecar files
/// (``MediaCharacteristic/legible``, which may also select none).
public struct MediaSelectionGroup: Sendable, Hashable {
    public let characteristic: MediaCharacteristic
    /// The options, container tracks in stream order, then sidecar files in the order they were added.
    public let options: [MediaSelectionOption]

    /// A group of `options` offering `characteristic`.
    public init(characteristic: MediaCharacteristic, options: [MediaSelectionOption]) {
        self.characteristic = characteristic
        self.options = options
    }

    /// The groups of a container with `tracks` (audio, then subtitles; each when it has any), as an item with
    /// them lists them before its sidecar files and HLS renditions are added (``PlayerItem/mediaSelectionGroups``):
    /// what an asset offers before any player loads it.
    public static func groups(of tracks: [TrackInfo]) -> [MediaSelectionGroup] {
        MediaSelectionRules.groups(tracks: tracks, sidecars: [])
    }

    /// Whether selecting no option is allowed: true for subtitles, false for audio.
    public var allowsEmptySelection: Bool { characteristic == .legible }

    /// What plays when nothing else decides: for audio the track the container marks as default (else the first
    /// playable one); for subtitles a sidecar file given as default, else an HLS rendition marked `DEFAULT=YES`,
    /// else none.
    public var defaultOption: MediaSelectionOption? {
        guard characteristic == .audible else {
            return options.first { $0.isSidecar && $0.isDefault } ?? options.first { $0.isRendition && $0.isDefault }
        }
        let playable = options.filter(\.isPlayable)
        return playable.first { $0.isDefault } ?? playable.first
    }

    /// The options in one of `preferredLanguages`, in the order of that list (options of the first language first),
    /// as `AVMediaSelectionGroup.mediaSelectionOptions(from:filteredAndSortedAccordingToPreferredLanguages:)` does.
    public func options(
        filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    )
        -> [MediaSelectionOption]
    {
        preferredLanguages.flatMap { language in options.filter { $0.hasLanguage(language) } }.reduce(into: []) {
            if !$0.contains($1) { $0.append($1) }
        }
    }
}

/// Which option of each group is selected, like `AVMediaSelection`.
public struct MediaSelection: Sendable, Equatable {
    var selected: [MediaCharacteristic: MediaSelectionOption] = [:]

    /// A selection of `options` (one per characteristic).
    public init(_ options: [MediaSelectionOption] = []) {
        for option in options { selected[option.characteristic] = option }
    }

    /// The option selected in `group`; nil when none is (no subtitles, or nothing loaded yet).
    public func selectedMediaOption(in group: MediaSelectionGroup) -> MediaSelectionOption? {
        selected[group.characteristic].flatMap { group.options.contains($0) ? $0 : nil }
    }

    /// The option selected for `characteristic`, if any.
    public subscript(characteristic: MediaCharacteristic) -> MediaSelectionOption? {
        get { selected[characteristic] }
        set { selected[characteristic] = newValue }
    }
}

/// The languages a player prefers for a characteristic, like `AVPlayerMediaSelectionCriteria` (set with
/// ``Player/setMediaSelectionCriteria(_:forMediaCharacteristic:)``).
public struct MediaSelectionCriteria: Sendable, Equatable {
    /// Languages in order of preference (`fr`, `fra`, `fr-CA` or `French`).
    public var preferredLanguages: [String]

    public init(preferredLanguages: [String]) {
        self.preferredLanguages = preferredLanguages
    }
}
