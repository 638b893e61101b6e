/// Media selection (locked): the app's choices applied to the decoders of a loaded item, at the current time.
extension PlayerCore {
    /// `item`'s selection changed (``PlayerItem/select(_:in:)``): its decoders follow, if it has loaded.
    func selectionChanged(_ item: PlayerItem, characteristic: MediaCharacteristic) {
        mutate { core in
            guard item === core.currentItem || core.state.queue.contains(item), let loaded = core.loaded(item) else {
                return
            }
            core.applySelection(item, loaded, at: core.clockNow(), announce: true)
        }
    }

    /// Makes `loaded`'s decoders play what `item` should select now (the app's choice, else the player's rules),
    /// and records it in the item. With `announce`, each change is an event.
    func applySelection(_ item: PlayerItem, _ loaded: LoadedItem, at now: Double, announce: Bool) {
        let explicit = item.state.withLock { $0.explicitSelection }
        let desired = state.selectionRules.resolve(loaded.groups, explicit: explicit)
        if desired[.audible] != loaded.selection[.audible], let option = desired[.audible] {
            selectAudio(option, item, loaded, at: now)
            if announce { emit(.mediaSelection(.audible, option: option.displayName), item: item, at: now) }
        }
        if desired[.legible] != loaded.selection[.legible] {
            selectText(desired[.legible], item, loaded, at: now)
            if announce { emit(.mediaSelection(.legible, option: desired[.legible]?.displayName), item: item, at: now) }
        }
        let selection = loaded.selection
        item.state.withLock { $0.selection = selection }
    }

    /// Reports what a newly loaded item selected where there was a choice: a group of several options, or
    /// subtitles shown.
    func announceSelection(_ item: PlayerItem, _ loaded: LoadedItem, at now: Double) {
        for group in loaded.groups {
            let selected = loaded.selection[group.characteristic]
            guard group.options.count > 1 || selected != nil && group.characteristic == .legible else { continue }
            emit(.mediaSelection(group.characteristic, option: selected?.displayName), item: item, at: now)
        }
    }

    /// Decodes `option`'s audio track instead, from where the audio handed out so far ends (the current item; the
    /// target of a seek in flight, where the decoders are going), or from the start (an item loaded ahead): no
    /// seek, at most a buffer's gap.
    private func selectAudio(_ option: MediaSelectionOption, _ item: PlayerItem, _ loaded: LoadedItem, at now: Double) {
        guard let index = option.trackIndex, option.isPlayable else { return }
        loaded.selection[.audible] = option
        guard let audio = loaded.audio else { return }
        var from = MediaTime.zero
        if item === currentItem {
            from =
                state.seeks.pendingTarget ?? state.presentation.lastAudio?.end ?? timelineTime(at: now)
        }
        // An audio rendition's demuxer numbers its streams from 0 (they are listed after the primary's).
        audio.selectTrack(index - loaded.audioTrackOffset, from: from)
    }

    /// Shows `option`'s cues instead (none when nil): its track is read on a thread of its own; what was shown of
    /// the old one is taken away at once.
    private func selectText(_ option: MediaSelectionOption?, _ item: PlayerItem, _ loaded: LoadedItem, at now: Double) {
        loaded.text?.stop()
        loaded.text = nil
        loaded.selection[.legible] = option
        var started: (any LegiblePipeline)?
        if let option {
            if option.isPlayable {
                let pipeline = loaded.textReaders.pipeline(for: option) { [weak self] in self?.wake() }
                if item === currentItem { pipeline.seek(to: state.seeks.pendingTarget ?? timelineTime(at: now)) }
                loaded.text = pipeline
                if loaded.deferredStart == nil { started = pipeline }
            } else {
                let error = MediaError(
                    .unsupportedCodec, url: item.url, operation: .openDecoder,
                    reason: "\(option.codec) subtitles are pictures: listed, not rendered")
                optionFailed(option, item, error, at: now)
            }
        }
        // The old cues go now, before the new track's thread reads any (whose cues then come at the next step,
        // however fast it ran).
        if item === currentItem { presentCues(at: timelineTime(at: now), now: now) }
        started?.start(name: item.name)
    }

    /// Marks `option` of `item` failed and reports it.
    func optionFailed(_ option: MediaSelectionOption, _ item: PlayerItem, _ error: MediaError, at now: Double) {
        item.state.withLock { $0.optionErrors[option] = error }
        emit(
            .mediaOptionFailed(option.characteristic, option: option.displayName, error: error.description),
            item: item, at: now)
    }
}
