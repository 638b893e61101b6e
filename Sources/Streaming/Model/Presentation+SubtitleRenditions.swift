extension Presentation {
    /// The subtitle renditions `variant` offers (`#EXT-X-MEDIA:TYPE=SUBTITLES` of its `SUBTITLES=` group, in
    /// playlist order) that have a media playlist of their own to play: an HLS presentation's WebVTT renditions.
    /// Empty for DASH (its text adaptation sets are listed in ``renditions``, not played).
    public func subtitleRenditions(for variant: Variant) -> [Rendition] {
        guard format == .hls, let group = variant.subtitlesGroup else { return [] }
        return renditions.filter { rendition in
            guard rendition.kind == .subtitles, rendition.groupID == group else { return false }
            if case .playlist? = rendition.media { return true }
            return false
        }
    }
}
