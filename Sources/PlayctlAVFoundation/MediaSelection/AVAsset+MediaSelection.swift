import Foundation
import Playback

/// Media selection of an asset: its container's audio and subtitle tracks, as the engine's probe finds them.
extension AVAsset {
    /// The group of options offering `characteristic` (`.audible`, `.legible`), loading first when needed,
    /// blocking; nil when the asset has none or loading fails. (Deprecated on Apple platforms for
    /// ``loadMediaSelectionGroup(for:)``.)
    public func mediaSelectionGroup(
        forMediaCharacteristic characteristic: AVMediaCharacteristic
    )
        -> AVMediaSelectionGroup?
    {
        (try? loadedGroups()).flatMap { Self.group(characteristic, in: $0) }
    }

    /// The group of options offering `characteristic`, once the asset is loaded; nil when it has none.
    /// - Throws: the load's `NSError` (the media could not be opened).
    public func loadMediaSelectionGroup(
        for characteristic: AVMediaCharacteristic
    ) async throws
        -> AVMediaSelectionGroup?
    {
        Self.group(characteristic, in: try await probe().get().groups)
    }

    /// The characteristics the asset has selection groups for (loads first, blocking; empty when loading fails).
    public var availableMediaCharacteristicsWithMediaSelectionOptions: [AVMediaCharacteristic] {
        ((try? loadedGroups()) ?? []).map { AVMediaCharacteristic($0.characteristic) }
    }

    /// What plays when nothing else decides, in each group (loads first, blocking).
    public var preferredMediaSelection: AVMediaSelection {
        var selection = MediaSelection()
        for group in (try? loadedGroups()) ?? [] { selection[group.characteristic] = group.defaultOption }
        return AVMediaSelection(selection, asset: self)
    }

    /// Every combination of one option per group (none too, for subtitles), loads first, blocking.
    public var allMediaSelections: [AVMediaSelection] {
        var selections = [MediaSelection()]
        for group in (try? loadedGroups()) ?? [] {
            let choices: [MediaSelectionOption?] = group.options + (group.allowsEmptySelection ? [nil] : [])
            selections = selections.flatMap { selection in
                choices.map { choice in
                    var next = selection
                    next[group.characteristic] = choice
                    return next
                }
            }
        }
        return selections.map { AVMediaSelection($0, asset: self) }
    }

    private func loadedGroups() throws -> [MediaSelectionGroup] {
        try loadedProbe().get().groups
    }

    static func group(
        _ characteristic: AVMediaCharacteristic, in groups: [MediaSelectionGroup]
    )
        -> AVMediaSelectionGroup?
    {
        guard let engine = characteristic.engine, let group = groups.first(where: { $0.characteristic == engine })
        else { return nil }
        return AVMediaSelectionGroup(playctlGroup: group)
    }
}

extension AVPartialAsyncProperty where Root: AVAsset {
    /// The characteristics the asset has selection groups for.
    public static var availableMediaCharacteristicsWithMediaSelectionOptions:
        AVAsyncProperty<Root, [AVMediaCharacteristic]>
    {
        AVAsyncProperty(name: "availableMediaCharacteristicsWithMediaSelectionOptions") { probe in
            probe.groups.map { AVMediaCharacteristic($0.characteristic) }
        }
    }

    /// What plays when nothing else decides, in each group.
    public static var preferredMediaSelection: AVAsyncProperty<Root, AVMediaSelection> {
        AVAsyncProperty(name: "preferredMediaSelection") { probe in
            var selection = MediaSelection()
            for group in probe.groups { selection[group.characteristic] = group.defaultOption }
            return AVMediaSelection(selection, asset: nil)
        }
    }
}
