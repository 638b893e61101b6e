/// Whether a URL or path names a picture file by its extension (`.jpg`, `.jpeg`, `.png`, `.webp`, `.gif`), its
/// query left out: what a feed entry without a kind, and a poster's source, are taken for before any byte is read.
public enum PictureFileName {
    public static func matches(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return ["jpg", "jpeg", "png", "webp", "gif"].contains(
            path[path.index(after: dot)...].lowercased())
    }
}
