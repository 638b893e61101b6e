import Feed
import Foundation

/// A folder as a manifest: its media files sorted by name (byte order), images by their extension, other media
/// files videos. Hidden files, subfolders and files that are not media are ignored; audio-only files are left out
/// (a feed's entries show a picture), each noted in ``FeedManifest/skipped``.
extension FeedManifest {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]
    static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mov", "webm", "mkv", "ts", "m2ts", "mts", "avi", "flv", "3gp", "ogv", "mpg", "mpeg", "wmv",
    ]
    static let audioExtensions: Set<String> = ["m4a", "mp3", "aac", "wav", "flac", "ogg", "oga", "opus"]

    /// The media files of the folder at `folder`.
    /// - Throws: `.unreadable` when it cannot be listed, `.empty` when it holds no video or image file.
    init(folder: String) throws(FeedInputError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw .unreadable(file: folder, reason: underlying?.localizedDescription ?? error.localizedDescription)
        }
        var entries: [FeedEntry] = []
        var skipped: [String] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !name.hasPrefix(".") {
            let path = Self.resolve(name, in: folder)
            guard let dot = name.lastIndex(of: "."), (try? FeedInputFile.isDirectory(path)) == false else { continue }
            let type = name[name.index(after: dot)...].lowercased()
            if Self.imageExtensions.contains(type) {
                entries.append(FeedEntry(url: path, kind: .image))
            } else if Self.videoExtensions.contains(type) {
                entries.append(FeedEntry(url: path, kind: .video))
            } else if Self.audioExtensions.contains(type) {
                skipped.append(path)
            }
        }
        guard !entries.isEmpty else { throw .empty(file: folder, reason: "no video or image files") }
        self.init(path: folder, entries: entries, skipped: skipped)
    }
}
