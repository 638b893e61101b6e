import AVFoundation

/// App code written for iOS: the subtitle menu of a player screen (the languages offered, the user's pick, "Auto").
struct SubtitleMenu {
    /// The menu's entries: "Off", then each playable subtitle option's name, in the user's languages first.
    func entries(for item: AVPlayerItem, preferring languages: [String]) async throws -> [String] {
        guard let group = try await item.asset.loadMediaSelectionGroup(for: .legible) else { return [] }
        let playable = AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options)
        let preferred = AVMediaSelectionGroup.mediaSelectionOptions(
            from: playable, filteredAndSortedAccordingToPreferredLanguages: languages)
        let rest = playable.filter { !preferred.contains($0) }
        return ["Off"] + (preferred + rest).map(\.displayName)
    }

    /// Shows the subtitles in `language` (a BCP 47 tag), or none for nil.
    func choose(_ language: String?, for item: AVPlayerItem) async throws {
        guard let group = try await item.asset.loadMediaSelectionGroup(for: .legible) else { return }
        let option = group.options.first { $0.extendedLanguageTag == language }
        item.select(language == nil ? nil : option, in: group)
    }

    /// The language of the subtitles shown, if any.
    func current(for item: AVPlayerItem) -> String? {
        guard let group = item.asset.mediaSelectionGroup(forMediaCharacteristic: .legible) else { return nil }
        return item.currentMediaSelection.selectedMediaOption(in: group)?.locale?.identifier
    }
}
