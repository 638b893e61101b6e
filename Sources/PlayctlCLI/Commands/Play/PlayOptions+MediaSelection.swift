import Playback

extension PlayOptions {
    /// `--audio-lang` and `--sub-lang` as the player's media selection criteria, `--sub-file`s as the item's
    /// sidecar subtitles (the first one shown unless `--sub-lang` picks another option).
    func applyMediaSelection(to player: Player, item: PlayerItem) {
        if let audioLanguage {
            player.setMediaSelectionCriteria(
                MediaSelectionCriteria(preferredLanguages: [audioLanguage]), forMediaCharacteristic: .audible)
        }
        if let subtitleLanguage {
            player.setMediaSelectionCriteria(
                MediaSelectionCriteria(preferredLanguages: [subtitleLanguage]), forMediaCharacteristic: .legible)
        }
        for (number, file) in subtitleFiles.enumerated() {
            item.addSidecarSubtitle(SidecarSubtitle(url: file, isDefault: number == 0))
        }
    }
}
