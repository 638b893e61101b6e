/// How an item's selection is decided when it loads (a value: tracks and preferences in, a selection out).
///
/// - An option the app selected (``PlayerItem/select(_:in:)``) stays selected.
/// - Otherwise, with criteria applied automatically (``Player/appliesMediaSelectionCriteriaAutomatically``), the
///   first playable option in the first preferred language that has one.
/// - Otherwise audio plays the default option (the track marked default, else the first), and subtitles show a
///   sidecar file marked default, else the forced subtitles of the selected audio's language, if there are any,
///   else none. (A container's default flag does not turn subtitles on: MP4 files mark their first text track
///   enabled whether or not it is meant to be shown.)
struct MediaSelectionRules: Sendable {
    var criteria: [MediaCharacteristic: MediaSelectionCriteria] = [:]
    var appliesCriteriaAutomatically = true

    /// The groups of an item with `tracks`, `sidecars` and the subtitle `renditions` of its HLS presentation: audio
    /// (when it has audio) and subtitles (tracks, then renditions, then sidecars; when it has any).
    static func groups(
        tracks: [TrackInfo], sidecars: [SidecarSubtitle], renditions: [MediaSelectionOption] = []
    ) -> [MediaSelectionGroup] {
        let audio = tracks.filter { $0.kind == .audio }.map { track in
            MediaSelectionOption(
                source: .track(track.index), characteristic: .audible, languageCode: track.language,
                title: track.title, codec: track.codec, isDefault: track.isDefault, isForced: track.isForced,
                channels: track.channels, isPlayable: track.isDecodable)
        }
        let text =
            tracks.filter { $0.kind == .subtitle }.map { track in
                MediaSelectionOption(
                    source: .track(track.index), characteristic: .legible, languageCode: track.language,
                    title: track.title, codec: track.codec, isDefault: track.isDefault, isForced: track.isForced,
                    isPlayable: track.isDecodable && !track.isBitmapSubtitle)
            } + renditions + sidecars.map(\.option)
        var groups: [MediaSelectionGroup] = []
        if !audio.isEmpty { groups.append(MediaSelectionGroup(characteristic: .audible, options: audio)) }
        if !text.isEmpty { groups.append(MediaSelectionGroup(characteristic: .legible, options: text)) }
        return groups
    }

    /// The selection for `groups`, keeping what the app chose (`explicit`: an option, or nil for none).
    func resolve(
        _ groups: [MediaSelectionGroup], explicit: [MediaCharacteristic: MediaSelectionOption?]
    ) -> MediaSelection {
        var selection = MediaSelection()
        for characteristic in [MediaCharacteristic.audible, .legible] {
            guard let group = groups.first(where: { $0.characteristic == characteristic }) else { continue }
            if let chosen = explicit[characteristic], chosen.map(group.options.contains) ?? true {
                selection[characteristic] = chosen
                continue
            }
            selection[characteristic] = automatic(group, audio: selection[.audible])
        }
        return selection
    }

    /// What plays in `group` when the app did not choose.
    private func automatic(_ group: MediaSelectionGroup, audio: MediaSelectionOption?) -> MediaSelectionOption? {
        if appliesCriteriaAutomatically, let languages = criteria[group.characteristic]?.preferredLanguages,
            let preferred = group.options(filteredAndSortedAccordingToPreferredLanguages: languages).first(where: {
                $0.isPlayable && $0.isAutoselect
            })
        {
            return preferred
        }
        if let option = group.defaultOption { return option }
        guard let language = audio?.languageCode else { return nil }
        return group.options.first { $0.isForced && $0.isPlayable && $0.hasLanguage(language) }
    }
}
