/// Media selection (audio languages, subtitles) and timed-text outputs, with AVFoundation's names.
extension PlayerItem {
    /// Once loaded: the group of options offering `characteristic` (its audio tracks, or its subtitle tracks and
    /// sidecar files), like `AVAsset.loadMediaSelectionGroup(for:)`; nil before loading or when it has none.
    public func mediaSelectionGroup(for characteristic: MediaCharacteristic) -> MediaSelectionGroup? {
        state.withLock { $0.groups.first { $0.characteristic == characteristic } }
    }

    /// Once loaded: every group the item has (audio first, then subtitles).
    public var mediaSelectionGroups: [MediaSelectionGroup] { state.withLock { $0.groups } }

    /// What is selected in each group, like `AVPlayerItem.currentMediaSelection`.
    public var currentMediaSelection: MediaSelection { state.withLock { $0.selection } }

    /// Selects `option` in `group` (nil for none, where the group allows it: subtitles), like
    /// `AVPlayerItem.select(_:in:)`. While the item plays, the switch happens at the current time without a seek:
    /// the new audio track continues from where the audio played so far ends; subtitles show the new track's cues
    /// due now. An option not in the group, or nil for audio, is ignored. A choice made before the item loads is
    /// kept for when it does.
    public func select(_ option: MediaSelectionOption?, in group: MediaSelectionGroup) {
        if let option {
            guard option.characteristic == group.characteristic, group.options.contains(option) else { return }
        } else if !group.allowsEmptySelection {
            return
        }
        let core = state.withLock { itemState -> PlayerCore? in
            itemState.explicitSelection[group.characteristic] = .some(option)
            return itemState.core
        }
        core?.selectionChanged(self, characteristic: group.characteristic)
    }

    /// Lets the player's rules choose in `group` again (its criteria, else the defaults), undoing an option selected
    /// with ``select(_:in:)``, like `AVPlayerItem.selectMediaOptionAutomatically(in:)`.
    public func selectMediaOptionAutomatically(in group: MediaSelectionGroup) {
        let core = state.withLock { itemState -> PlayerCore? in
            itemState.explicitSelection[group.characteristic] = nil
            return itemState.core
        }
        core?.selectionChanged(self, characteristic: group.characteristic)
    }

    /// Whether the player's rules choose in `group` (true until ``select(_:in:)`` chooses there, and again after
    /// ``selectMediaOptionAutomatically(in:)``).
    public func selectsMediaOptionAutomatically(in group: MediaSelectionGroup) -> Bool {
        state.withLock { $0.explicitSelection[group.characteristic] == nil }
    }

    /// Why `option` could not be played (a sidecar file that is missing or not subtitles, a track whose data
    /// could not be decoded), once the player tried; the rest of the item plays on.
    public func error(for option: MediaSelectionOption) -> MediaError? {
        state.withLock { $0.optionErrors[option] }
    }

    /// Subtitle files given with the item, listed in its legible group after its own subtitle tracks.
    public var sidecarSubtitles: [SidecarSubtitle] { state.withLock { $0.sidecars } }

    /// Adds a subtitle file to the item's legible group (like mpv's `--sub-file`); add it before the item loads.
    public func addSidecarSubtitle(_ sidecar: SidecarSubtitle) {
        state.withLock { $0.sidecars.append(sidecar) }
    }

    /// Adds a timed-text output: its block gets the cues shown each time they change, on the player's callback
    /// executor (like `AVPlayerItemLegibleOutput`).
    public func add(_ output: PlayerItemLegibleOutput) {
        state.withLock { $0.legibleOutputs.append(output) }
    }

    /// Removes a timed-text output.
    public func remove(_ output: PlayerItemLegibleOutput) {
        state.withLock { $0.legibleOutputs.removeAll { $0 === output } }
    }
}
