/// What a media selection group's options offer, as `AVMediaCharacteristic` names it.
public enum MediaCharacteristic: String, Sendable, Hashable, CaseIterable {
    /// Sound: the item's audio tracks (one plays at a time).
    case audible
    /// Text to read: subtitle tracks in the container and sidecar subtitle files (at most one is shown).
    case legible
}
