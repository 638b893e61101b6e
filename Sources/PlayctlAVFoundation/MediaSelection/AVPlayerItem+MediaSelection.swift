import Foundation
import Playback

/// Media selection of an item: the engine item's groups once a player loaded it (its tracks, HLS subtitle
/// renditions and sidecar files), else its asset's.
extension AVPlayerItem {
    /// Selects `option` in `group` (nil for none, where the group allows it: subtitles), as
    /// `AVPlayerItem.select(_:in:)`: while the item plays the switch happens at the current time, without a seek.
    /// An option of the asset's group selects the same track. Posts ``mediaSelectionDidChangeNotification``.
    public func select(_ option: AVMediaSelectionOption?, in group: AVMediaSelectionGroup) {
        playctlItem.select(option?.playctlOption, in: liveGroup(group))
        NotificationCenter.default.post(name: Self.mediaSelectionDidChangeNotification, object: self)
    }

    /// Lets the player's criteria (else the defaults) choose in `group` again, undoing ``select(_:in:)``. Posts
    /// ``mediaSelectionDidChangeNotification``.
    public func selectMediaOptionAutomatically(in group: AVMediaSelectionGroup) {
        playctlItem.selectMediaOptionAutomatically(in: liveGroup(group))
        NotificationCenter.default.post(name: Self.mediaSelectionDidChangeNotification, object: self)
    }

    /// What is selected in each group (nothing before a player loaded the item).
    public var currentMediaSelection: AVMediaSelection {
        let groups = playctlItem.mediaSelectionGroups
        let chosen = Set(groups.filter { !playctlItem.selectsMediaOptionAutomatically(in: $0) }.map(\.characteristic))
        return AVMediaSelection(playctlItem.currentMediaSelection, asset: asset, chosen: chosen)
    }

    /// The option selected in the group offering `characteristic`, once loaded; nil when none is.
    public func selectedMediaOption(for characteristic: AVMediaCharacteristic) -> AVMediaSelectionOption? {
        guard let engine = characteristic.engine else { return nil }
        return playctlItem.currentMediaSelection[engine].map(AVMediaSelectionOption.init(playctlOption:))
    }

    /// The item's group offering `characteristic` once a player loaded it (with its HLS renditions and sidecar
    /// files), else its asset's.
    public func mediaSelectionGroup(for characteristic: AVMediaCharacteristic) -> AVMediaSelectionGroup? {
        if let engine = characteristic.engine, let group = playctlItem.mediaSelectionGroup(for: engine) {
            return AVMediaSelectionGroup(playctlGroup: group)
        }
        return asset.mediaSelectionGroup(forMediaCharacteristic: characteristic)
    }

    /// The engine's group for `group`: the loaded item's of the same characteristic (an asset's group lists its
    /// container tracks only), else `group`'s own (the choice is kept for when the item loads).
    private func liveGroup(_ group: AVMediaSelectionGroup) -> MediaSelectionGroup {
        playctlItem.mediaSelectionGroup(for: group.playctlGroup.characteristic) ?? group.playctlGroup
    }

    /// The media selection of an item changed (object: the item).
    public static let mediaSelectionDidChangeNotification = Notification.Name(
        "AVPlayerItemMediaSelectionDidChangeNotification")
}

/// The languages the player prefers when an item loads, with AVPlayer's names.
extension AVPlayer {
    /// Sets the languages preferred for `characteristic` (`.audible`, `.legible`) when items load: the first playable
    /// option in the first preferred language that has one is selected, unless the app selected in the item. Nil
    /// removes them.
    public func setMediaSelectionCriteria(
        _ criteria: AVPlayerMediaSelectionCriteria?, forMediaCharacteristic characteristic: AVMediaCharacteristic
    ) {
        guard let engine = characteristic.engine else { return }
        playctlPlayer.setMediaSelectionCriteria(
            criteria.map { MediaSelectionCriteria(preferredLanguages: $0.preferredLanguages ?? []) },
            forMediaCharacteristic: engine)
    }

    /// The criteria set for `characteristic`, if any.
    public func mediaSelectionCriteria(
        forMediaCharacteristic characteristic: AVMediaCharacteristic
    )
        -> AVPlayerMediaSelectionCriteria?
    {
        guard let engine = characteristic.engine,
            let criteria = playctlPlayer.mediaSelectionCriteria(forMediaCharacteristic: engine)
        else { return nil }
        return AVPlayerMediaSelectionCriteria(
            preferredLanguages: criteria.preferredLanguages, preferredMediaCharacteristics: nil)
    }

    /// Whether items select by the criteria when they load (true, the default).
    public var appliesMediaSelectionCriteriaAutomatically: Bool {
        get { playctlPlayer.appliesMediaSelectionCriteriaAutomatically }
        set { playctlPlayer.appliesMediaSelectionCriteriaAutomatically = newValue }
    }
}
