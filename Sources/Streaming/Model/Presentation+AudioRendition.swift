extension Presentation {
    /// The alternative audio rendition `variant` plays with when its audio is not in its own segments, or nil when
    /// it is (no audio group, or the rendition chosen names no URI: an `#EXT-X-MEDIA` without `URI` is audio muxed
    /// in the variant).
    ///
    /// Among the renditions of the variant's audio group, in the language `preferredLanguage` names when one of
    /// them has it (a prefix match, `en` for `en-US`): for HLS, the `DEFAULT=YES` one, else the first
    /// `AUTOSELECT=YES` one, else the first (RFC 8216 4.3.4.1.1, as AVPlayer and hls.js choose); for DASH, the
    /// lowest bandwidth Representation of the sets whose Role is `main` (of all when none is).
    public func audioRendition(for variant: Variant, preferredLanguage: String? = nil) -> Rendition? {
        guard let group = variant.audioGroup else { return nil }
        var candidates = renditions.filter { $0.kind == .audio && $0.groupID == group }
        if let preferred = preferredLanguage?.lowercased(), !preferred.isEmpty {
            let matching = candidates.filter { Self.language($0.language, matches: preferred) }
            if !matching.isEmpty { candidates = matching }
        }
        let chosen: Rendition?
        switch format {
        case .hls:
            chosen = candidates.first(where: \.isDefault) ?? candidates.first(where: \.isAutoselect) ?? candidates.first
        case .dash:
            let main = candidates.filter(\.isDefault)
            chosen = (main.isEmpty ? candidates : main).filter { $0.media != nil }
                .min { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
        }
        guard let chosen, chosen.media != nil else { return nil }
        return chosen
    }

    /// Whether a rendition tagged `language` (`en-US`, `eng`) is in `preferred` (lowercased): equal, or one a
    /// subtag-prefix of the other.
    private static func language(_ language: String?, matches preferred: String) -> Bool {
        guard let language = language?.lowercased() else { return false }
        return language == preferred || language.hasPrefix(preferred + "-") || preferred.hasPrefix(language + "-")
    }
}
