import Foundation
import Playback

/// One choice of an ``AVMediaSelectionGroup``, as AVFoundation's `AVMediaSelectionOption`: an audio track, or a
/// subtitle track, sidecar file or HLS subtitle rendition (``playctlOption``, the engine's).
///
/// Two options are equal when they are the same engine option (the same track of the same kind), whichever group
/// or asset they were read from: an option of an asset's group selects the same track in an item playing it.
public final class AVMediaSelectionOption: NSObject, @unchecked Sendable {
    /// The engine's option.
    public let playctlOption: MediaSelectionOption

    /// The option for the engine's `option`.
    public init(playctlOption option: MediaSelectionOption) {
        playctlOption = option
        super.init()
    }

    /// `.audio` for an audio track, `.subtitle` for subtitles.
    public var mediaType: AVMediaType { playctlOption.characteristic == .audible ? .audio : .subtitle }

    /// A name for a menu: the track's title, else its language's English name, else the track's number.
    public var displayName: String { playctlOption.displayName }

    /// A name for a menu in `locale`'s language: the track's title, else its language's name in `locale` (as
    /// Foundation names it), else ``displayName``.
    public func displayName(with locale: Locale) -> String {
        if let title = playctlOption.title, !title.isEmpty { return title }
        if let tag = extendedLanguageTag, let name = locale.localizedString(forIdentifier: tag) { return name }
        return displayName
    }

    /// The option's language as a BCP 47 tag (`en`, `fr-CA`): ISO 639-2 codes of common languages become their ISO
    /// 639-1 codes; nil when untagged or undetermined (`und`).
    public var extendedLanguageTag: String? { playctlOption.extendedLanguageTag }

    /// The locale of ``extendedLanguageTag``; nil without one.
    public var locale: Locale? { extendedLanguageTag.map { Locale(identifier: $0) } }

    /// Whether the engine can play it: false for bitmap subtitles (listed, not rendered) and codecs without a
    /// decoder.
    public var isPlayable: Bool { playctlOption.isPlayable }

    /// Whether it offers `characteristic`: `.audible` for audio, `.legible` for subtitles,
    /// `.containsOnlyForcedSubtitles` for a forced subtitle track.
    public func hasMediaCharacteristic(_ characteristic: AVMediaCharacteristic) -> Bool {
        switch characteristic {
        case .containsOnlyForcedSubtitles: return playctlOption.characteristic == .legible && playctlOption.isForced
        default: return characteristic.engine == playctlOption.characteristic
        }
    }

    /// Options associated with this one in `group` (an audio track's subtitles): none here.
    public func associatedMediaSelectionOption(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? { nil }

    /// A value that names the option across runs, for ``AVMediaSelectionGroup/mediaSelectionOption(withPropertyList:)``
    /// (a dictionary of strings).
    public func propertyList() -> Any {
        var list = ["characteristic": playctlOption.characteristic.rawValue]
        switch playctlOption.source {
        case .track(let index): list["track"] = String(index)
        case .sidecar(let url): list["sidecar"] = url
        case .rendition(let url): list["rendition"] = url
        }
        return list
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? AVMediaSelectionOption)?.playctlOption == playctlOption
    }

    public override var hash: Int { playctlOption.hashValue }

    public override var description: String { "AVMediaSelectionOption(\(playctlOption))" }
}
