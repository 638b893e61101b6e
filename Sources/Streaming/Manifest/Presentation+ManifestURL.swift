extension Presentation {
    /// Whether `url` names an HLS playlist or a DASH manifest, by its path's extension (`.m3u8`, `.m3u`, `.mpd`, in
    /// any case; a query or fragment is ignored). Says nothing of the scheme: a player reads a manifest through its
    /// own loader only when the URL is also http(s).
    public static func isManifestURL(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let clean = (path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .lowercased()
        return clean.hasSuffix(".m3u8") || clean.hasSuffix(".m3u") || clean.hasSuffix(".mpd")
    }
}
