/// One choice of a ``MediaSelectionGroup``, like `AVMediaSelectionOption`: an audio track, or a subtitle track in
/// the container or in a sidecar file, with what the container says of it.
///
/// Two options are the same option when they are the same track of the same kind (`source` and `characteristic`),
/// whatever else was read of them.
public struct MediaSelectionOption: Sendable, Hashable, CustomStringConvertible {
    /// Where the option's media is.
    public enum Source: Sendable, Hashable {
        /// Stream `index` of the item's container.
        case track(Int)
        /// A sidecar subtitle file given with the item (``PlayerItem/addSidecarSubtitle(_:)``).
        case sidecar(url: String)
        /// An HLS subtitle rendition (`#EXT-X-MEDIA:TYPE=SUBTITLES`) of the item's presentation: its media
        /// playlist's URL.
        case rendition(url: String)
    }

    public let source: Source
    public let characteristic: MediaCharacteristic
    /// The language as tagged (ISO 639-2 such as `eng`, or a BCP 47 tag such as `fr-CA` for a sidecar); nil when
    /// untagged.
    public let languageCode: String?
    /// The track's title, when the container or the sidecar gives one.
    public let title: String?
    /// FFmpeg's codec name (`aac`, `mov_text`, `subrip`, `ass`, `webvtt`, `hdmv_pgs_subtitle`, ...).
    public let codec: String
    /// The container marks the track as the default of its kind.
    public let isDefault: Bool
    /// Forced subtitles: lines meant to be shown even with subtitles off (signs, foreign dialogue).
    public let isForced: Bool
    /// Whether the player's criteria may choose it (an HLS rendition's `AUTOSELECT`; true for tracks and sidecars).
    public let isAutoselect: Bool
    /// Channels (audio).
    public let channels: Int?
    /// Whether the engine can play it: false for bitmap subtitles (PGS, DVD, DVB: listed, not rendered) and codecs
    /// FFmpeg has no decoder for.
    public let isPlayable: Bool

    /// An option read from a track or a sidecar.
    public init(
        source: Source, characteristic: MediaCharacteristic, languageCode: String?, title: String?, codec: String,
        isDefault: Bool = false, isForced: Bool = false, channels: Int? = nil, isPlayable: Bool = true,
        isAutoselect: Bool = true
    ) {
        self.isAutoselect = isAutoselect
        self.source = source
        if case .track(let index) = source { trackIndex = index } else { trackIndex = nil }
        self.characteristic = characteristic
        self.languageCode = languageCode
        self.title = title
        self.codec = codec
        self.isDefault = isDefault
        self.isForced = isForced
        self.channels = channels
        self.isPlayable = isPlayable
    }

    /// The container stream, for an option in the container.
    // Stored, not computed from `source`: Swift 6.3's optimizer crashed (CopyPropagation, "found outside of lifetime
    // use") on the inlined switch over `source` in `LoadedItem.open` in release builds.
    public let trackIndex: Int?

    /// A name for a menu: the title, else the language's English name (or its code), else the track's number.
    public var displayName: String {
        if let title, !title.isEmpty { return title }
        if let languageCode { return LanguageCode.englishName(of: languageCode) ?? languageCode }
        switch source {
        case .track(let index): return "Track \(index)"
        case .sidecar(let url), .rendition(let url): return PlayerItem.name(of: url)
        }
    }

    /// The language as a BCP 47 tag (`en`, `fr-CA`), like `AVMediaSelectionOption.extendedLanguageTag`: an
    /// ISO 639-2 code of a common language becomes its ISO 639-1 code; nil when untagged or `und`.
    public var extendedLanguageTag: String? { languageCode.flatMap(LanguageCode.bcp47) }

    /// Whether the option is in `language` (`fr`, `fra`, `fre`, `fr-CA` and `French` all match French).
    public func hasLanguage(_ language: String) -> Bool {
        guard let languageCode else { return false }
        return LanguageCode.same(languageCode, language)
    }

    public var description: String {
        var parts = [displayName, codec]
        if let languageCode { parts.append(languageCode) }
        if let channels { parts.append("\(channels) ch") }
        if isDefault { parts.append("default") }
        if isForced { parts.append("forced") }
        if !isPlayable { parts.append("not rendered") }
        return parts.joined(separator: ", ")
    }

    public static func == (lhs: MediaSelectionOption, rhs: MediaSelectionOption) -> Bool {
        lhs.source == rhs.source && lhs.characteristic == rhs.characteristic
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(characteristic)
    }
}

extension MediaSelectionOption {
    /// Whether it is a sidecar file given with the item.
    var isSidecar: Bool {
        if case .sidecar = source { return true }
        return false
    }

    /// Whether it is a subtitle rendition of the item's HLS presentation.
    var isRendition: Bool {
        if case .rendition = source { return true }
        return false
    }
}
