/// A subtitle file given with an item (`.srt`, `.vtt`, `.ass`, `.ssa`: whatever libavformat reads as subtitles),
/// as mpv's `sub-file` or Media3's `SubtitleConfiguration`: listed in the item's legible group after its own tracks.
public struct SidecarSubtitle: Sendable, Hashable {
    /// A path, or an http(s) URL (read through the item's loader).
    public var url: String
    /// The language of its text (`en`, `fra`, ...), when known.
    public var languageCode: String?
    /// A title for menus.
    public var title: String?
    /// Whether it holds forced subtitles only.
    public var isForced: Bool
    /// Whether it is shown when the player's criteria select no subtitles (Media3's `SELECTION_FLAG_DEFAULT`, mpv's
    /// `--sub-file`): the app gave it to be shown.
    public var isDefault: Bool

    public init(
        url: String, languageCode: String? = nil, title: String? = nil, isForced: Bool = false, isDefault: Bool = false
    ) {
        self.url = url
        self.languageCode = languageCode
        self.title = title
        self.isForced = isForced
        self.isDefault = isDefault
    }

    /// The codec its extension suggests (the file itself says once opened).
    var codec: String {
        let name = PlayerItem.name(of: url).lowercased()
        let type = name.split(separator: ".").last.map(String.init) ?? ""
        switch type {
        case "srt": return "subrip"
        case "vtt": return "webvtt"
        case "ass", "ssa": return "ass"
        default: return type.isEmpty ? "subtitles" : type
        }
    }

    /// Its option in the legible group.
    var option: MediaSelectionOption {
        MediaSelectionOption(
            source: .sidecar(url: url), characteristic: .legible, languageCode: languageCode, title: title,
            codec: codec, isDefault: isDefault, isForced: isForced)
    }
}
