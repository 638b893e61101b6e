/// One cue of a timed-text track: what is shown from `start` to `end`, as plain text and in a styled form.
///
/// Every text subtitle format (SubRip, WebVTT, mov_text, ASS/SSA) is decoded by libavcodec into ASS dialogue
/// markup; `markup` keeps it (override tags such as `{\i1}` included) and `runs` is the same text split into
/// runs of one style, for an app that draws styled text without an ASS renderer.
public struct TextCue: Sendable, Equatable, Hashable {
    /// When the cue appears, measured from the start of the media.
    public var start: MediaTime
    /// When it disappears (`.positiveInfinity` when the track never says and no later cue follows).
    public var end: MediaTime
    /// The text, without markup; lines separated by `\n`.
    public var text: String
    /// The cue as ASS dialogue text (override tags kept, `\N` line breaks), as libavcodec decoded it.
    public var markup: String
    /// The ASS style the cue names (`Default` for formats without styles).
    public var style: String?
    /// The text in runs of one style (bold, italic, underline, colour), in order; their texts joined are `text`.
    public var runs: [StyledRun]

    /// A cue showing `markup` (ASS dialogue text) from `start` to `end`, in `style`.
    public init(start: MediaTime, end: MediaTime, markup: String, style: String? = nil) {
        self.start = start
        self.end = end
        self.markup = markup
        self.style = style
        self.runs = ASSMarkup.runs(of: markup)
        self.text = runs.map(\.text).joined()
    }

    /// Whether the cue is shown at `time` (from its start, up to but not including its end).
    public func isShown(at time: MediaTime) -> Bool {
        start <= time && time < end
    }
}

/// A stretch of cue text in one style.
public struct StyledRun: Sendable, Equatable, Hashable {
    public var text: String
    public var isBold = false
    public var isItalic = false
    public var isUnderlined = false
    /// The primary colour as 0xRRGGBB, when the markup sets one.
    public var color: UInt32?

    /// A run of `text` in the given style.
    public init(
        text: String, isBold: Bool = false, isItalic: Bool = false, isUnderlined: Bool = false, color: UInt32? = nil
    ) {
        self.text = text
        self.isBold = isBold
        self.isItalic = isItalic
        self.isUnderlined = isUnderlined
        self.color = color
    }
}
