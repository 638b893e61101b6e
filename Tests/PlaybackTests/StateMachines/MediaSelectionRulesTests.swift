import MediaIO
import Testing

@testable import Playback

/// The selection rules as a value: tracks, the app's choices and the player's criteria in, a selection out.
@Suite("Media selection rules")
struct MediaSelectionRulesTests {
    static func track(
        _ index: Int, _ kind: TrackInfo.Kind, _ codec: String, language: String?, isDefault: Bool = false,
        isForced: Bool = false, bitmap: Bool = false
    ) -> TrackInfo {
        var track = TrackInfo(index: index, kind: kind, codec: codec, isDecodable: true, timeBase: (1, 1000))
        track.language = language
        track.isDefault = isDefault
        track.isForced = isForced
        track.isBitmapSubtitle = bitmap
        return track
    }

    /// Video, English (not default) and German (default) audio, English PGS, German forced SubRip.
    static let tracks = [
        track(0, .video, "h264", language: nil), track(1, .audio, "aac", language: "eng"),
        track(2, .audio, "ac3", language: "deu", isDefault: true),
        track(3, .subtitle, "hdmv_pgs_subtitle", language: "eng", bitmap: true),
        track(4, .subtitle, "subrip", language: "ger", isForced: true),
    ]

    @Test("defaults: the audio marked default, the forced subtitles of its language; bitmaps listed, not playable")
    func defaults() throws {
        let groups = MediaSelectionRules.groups(tracks: Self.tracks, sidecars: [])
        #expect(groups.map(\.characteristic) == [.audible, .legible])
        let selection = MediaSelectionRules().resolve(groups, explicit: [:])
        #expect(selection[.audible]?.trackIndex == 2)
        #expect(selection[.legible]?.trackIndex == 4, "forced German subtitles with German audio")
        let pgs = try #require(groups[1].options.first)
        #expect(!pgs.isPlayable && pgs.description.contains("not rendered"))
    }

    @Test("criteria: the first language that has a playable option wins; a bitmap option is passed over")
    func criteria() {
        let groups = MediaSelectionRules.groups(tracks: Self.tracks, sidecars: [])
        var rules = MediaSelectionRules()
        rules.criteria[.audible] = MediaSelectionCriteria(preferredLanguages: ["fr", "English", "de"])
        rules.criteria[.legible] = MediaSelectionCriteria(preferredLanguages: ["en"])
        let selection = rules.resolve(groups, explicit: [:])
        #expect(selection[.audible]?.trackIndex == 1)
        #expect(selection[.legible] == nil, "English subtitles are PGS only; no forced English subtitles either")
        rules.appliesCriteriaAutomatically = false
        #expect(rules.resolve(groups, explicit: [:])[.audible]?.trackIndex == 2)
    }

    @Test("the app's choice wins, none included; a sidecar marked default shows when nothing else decides")
    func explicitAndSidecars() throws {
        let sidecar = SidecarSubtitle(url: "/films/a.fr.srt", languageCode: "fr", isDefault: true)
        let groups = MediaSelectionRules.groups(tracks: Self.tracks, sidecars: [sidecar])
        let legible = try #require(groups.last)
        #expect(legible.options.last?.codec == "subrip" && legible.options.last?.source == .sidecar(url: sidecar.url))
        #expect(legible.defaultOption == legible.options.last)
        let rules = MediaSelectionRules()
        #expect(rules.resolve(groups, explicit: [:])[.legible] == legible.options.last)
        let none: [MediaCharacteristic: MediaSelectionOption?] = [.legible: MediaSelectionOption?.none]
        #expect(rules.resolve(groups, explicit: none)[.legible] == nil)
        let english = groups[0].options[0]
        #expect(rules.resolve(groups, explicit: [.audible: english])[.audible] == english)
    }

    @Test("language tags: ISO 639-1 and -2 (both forms), regions, English names")
    func languages() {
        #expect(
            LanguageCode.same("fr", "fre") && LanguageCode.same("fra", "fr-CA") && LanguageCode.same("French", "fr"))
        #expect(LanguageCode.same("de_CH", "ger") && LanguageCode.same("deu", "DE"))
        #expect(!LanguageCode.same("en", "fr") && LanguageCode.same("xx", "xx-YY"))
        #expect(LanguageCode.englishName(of: "jpn") == "Japanese" && LanguageCode.englishName(of: "qaa") == nil)
    }
}

/// HLS subtitle renditions among the legible options: listed after the container's tracks, before sidecars; the
/// playlist's DEFAULT shows one when nothing else decides, AUTOSELECT=NO keeps one from the criteria.
@Suite("Media selection rules: HLS subtitle renditions")
struct RenditionSelectionRulesTests {
    static func rendition(
        _ name: String, _ language: String, isDefault: Bool = false, autoselect: Bool = true
    )
        -> MediaSelectionOption
    {
        MediaSelectionOption(
            source: .rendition(url: "https://example.com/\(name).m3u8"), characteristic: .legible,
            languageCode: language, title: name, codec: "webvtt", isDefault: isDefault, isAutoselect: autoselect)
    }

    @Test("order, the DEFAULT=YES rendition by default, criteria only among the autoselectable")
    func rules() throws {
        let tracks = [MediaSelectionRulesTests.track(0, .video, "h264", language: nil)]
        let sidecar = SidecarSubtitle(url: "extra.srt", languageCode: "de")
        let renditions = [Self.rendition("en", "en"), Self.rendition("fr", "fr", isDefault: true)]
        let groups = MediaSelectionRules.groups(tracks: tracks, sidecars: [sidecar], renditions: renditions)
        let legible = try #require(groups.first { $0.characteristic == .legible })
        #expect(legible.options.map(\.displayName) == ["en", "fr", "German"])
        #expect(MediaSelectionRules().resolve(groups, explicit: [:])[.legible]?.displayName == "fr")
        var rules = MediaSelectionRules()
        rules.criteria[.legible] = MediaSelectionCriteria(preferredLanguages: ["en"])
        #expect(rules.resolve(groups, explicit: [:])[.legible]?.displayName == "en")
        let manual = [Self.rendition("en", "en", autoselect: false), Self.rendition("fr", "fr")]
        let manualGroups = MediaSelectionRules.groups(tracks: tracks, sidecars: [], renditions: manual)
        #expect(rules.resolve(manualGroups, explicit: [:])[.legible] == nil, "AUTOSELECT=NO: not by criteria")
    }
}
