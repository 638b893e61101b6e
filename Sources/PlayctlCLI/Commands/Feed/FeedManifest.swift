import Feed
import Loading
import MediaCore
import PlayctlOutput
import Streaming

/// The entries `playctl feed` plays, read from its MANIFEST: a JSON file or a folder of media files.
///
/// A JSON manifest is `{"entries": [entry, ...]}` or the array alone; an endless feed's page also gives the URL of the
/// next page, `{"entries": [...], "next": "page2.json"}` (resolved as entry URLs are; the feed asks for it through the
/// loader when the user nears the end: ``FeedPages``). The manifest itself may be an http(s) URL. Each entry is
/// `{"url": "...", "kind": "video"|"image", "size": bytes, "duration": seconds}` (`size` and `duration` optional;
/// other members ignored). A video may list progressive renditions instead of (or beside) its `url`:
/// `"renditions": [{"url": "...", "bitrate": bits per second, "width": .., "height": .., "size": bytes}, ...]`
/// (`width`, `height` and `size` optional); the feed plays the one the bandwidth estimate allows, and without a
/// `url` the entry is named by its first rendition's. An entry may name a picture that stands for it until its first
/// frame shows, `"poster": "..."` (a server's thumbnail, resolved as URLs are). A URL with a scheme (`http://`, `https://`, `file://`) and an absolute path are kept as
/// they are; a relative path is resolved against the manifest's folder. A folder is read by
/// ``init(folder:)``.
struct FeedManifest: Equatable, Sendable {
    /// The manifest's path as given.
    let path: String
    let entries: [FeedEntry]
    /// The audio-only files of a folder, left out (paths).
    var skipped: [String] = []
    /// The next page's URL or path, for an endless feed.
    var next: String?

    /// The manifest at `path`: a folder or a JSON file.
    /// - Throws: `FeedInputError` naming the file: unreadable, not JSON, not a manifest, or empty.
    static func load(_ path: String, loading: RemoteLoading = .shared) throws(FeedInputError) -> FeedManifest {
        if RemoteLoading.isRemote(path) { return try remote(path, loading: loading, allowsEmpty: false) }
        if try FeedInputFile.isDirectory(path) { return try FeedManifest(folder: path) }
        return try FeedManifest(path: path, json: FeedInputFile.json(path))
    }

    /// The manifest at the http(s) `url`, read through `loading` (its cache, its typed errors). Blocking.
    static func remote(_ url: String, loading: RemoteLoading, allowsEmpty: Bool) throws(FeedInputError) -> FeedManifest
    {
        let bytes: [UInt8]
        do throws(MediaError) {
            bytes = try ResourceReader.bytes(url, limit: FeedInputFile.byteLimit, loading: loading)
        } catch {
            throw .unreadable(file: url, reason: error.reason)
        }
        return try FeedManifest(path: url, json: FeedInputFile.json(bytes: bytes, file: url), allowsEmpty: allowsEmpty)
    }

    /// The manifest `json`, read from the file at `path`.
    /// - Throws: `FeedInputError` naming `path` for the first mistake.
    init(path: String, json: JSONValue, allowsEmpty: Bool = false) throws(FeedInputError) {
        self.path = path
        let list: [JSONValue]
        let listPath: String
        if let array = json.arrayValue {
            (list, listPath) = (array, "")
        } else if json.objectValue != nil, let array = json["entries"]?.arrayValue {
            (list, listPath) = (array, "entries")
        } else if json.objectValue != nil, json["entries"] != nil {
            throw .invalid(file: path, path: "entries", reason: "expected an array of entries")
        } else {
            throw .invalid(
                file: path, path: "", reason: "expected {\"entries\": [...]} or an array of entries")
        }
        if json.objectValue != nil, let next = json["next"] {
            guard let url = next.stringValue, !url.isEmpty else {
                throw .invalid(file: path, path: "next", reason: "expected the next page's URL")
            }
            self.next = Self.resolve(url, in: Self.folder(of: path))
        }
        guard !list.isEmpty || allowsEmpty else { throw .empty(file: path, reason: "no entries") }
        var entries: [FeedEntry] = []
        for (position, value) in list.enumerated() {
            let object = try FeedJSONObject(value, file: path, path: "\(listPath)[\(position)]")
            entries.append(try Self.entry(object, relativeTo: Self.folder(of: path)))
        }
        self.entries = entries
    }

    init(path: String, entries: [FeedEntry], skipped: [String] = []) {
        self.path = path
        self.entries = entries
        self.skipped = skipped
    }

    /// One entry of the list.
    static func entry(_ object: FeedJSONObject, relativeTo folder: String) throws(FeedInputError) -> FeedEntry {
        let renditions = try Self.renditions(object, relativeTo: folder)
        let url: String
        if let given = try object.string("url") {
            guard !given.isEmpty else { throw object.invalid("url", "empty") }
            url = resolve(given, in: folder)
        } else if let first = renditions.first {
            url = first.url
        } else {
            throw .invalid(file: object.file, path: object.path, reason: "missing \"url\"")
        }
        let kindName = try object.required("kind", object.string)
        guard let kind = FeedEntry.Kind(rawValue: kindName) else {
            throw object.invalid("kind", "unknown kind '\(kindName)' (expected video or image)")
        }
        guard renditions.isEmpty || kind == .video else {
            throw object.invalid("renditions", "only a video has renditions")
        }
        let size = try object.count("size").map(Int64.init)
        let duration = try object.seconds("duration")
        var poster: String?
        if let given = try object.string("poster") {
            guard !given.isEmpty else { throw object.invalid("poster", "empty (leave it out for none)") }
            poster = resolve(given, in: folder)
        }
        return FeedEntry(
            url: url, kind: kind, byteSize: size, duration: duration, renditions: renditions,
            headers: try object.headers("headers") ?? [:], poster: poster)
    }

    /// The entry's `renditions` (empty when absent), their URLs resolved against `folder`.
    static func renditions(
        _ object: FeedJSONObject, relativeTo folder: String
    ) throws(FeedInputError) -> [ProgressiveRendition] {
        guard let list = try object.array("renditions") else { return [] }
        guard !list.isEmpty else { throw object.invalid("renditions", "empty (leave it out for none)") }
        var renditions: [ProgressiveRendition] = []
        for (position, value) in list.enumerated() {
            let rendition = try FeedJSONObject(value, file: object.file, path: "\(object.path).renditions[\(position)]")
            let url = try rendition.required("url", rendition.string)
            guard !url.isEmpty else { throw rendition.invalid("url", "empty") }
            let bitrate = try rendition.required("bitrate", rendition.count)
            guard bitrate > 0 else { throw rendition.invalid("bitrate", "expected bits per second, above 0") }
            renditions.append(
                ProgressiveRendition(
                    url: resolve(url, in: folder), bitrate: bitrate, width: try rendition.count("width"),
                    height: try rendition.count("height"), byteSize: try rendition.count("size").map(Int64.init)))
        }
        return renditions
    }

    /// The folder part of `path` (`Media` for `Media/feed.json`, `/` for `/feed.json`, empty for `feed.json`).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `url` as given when it has a scheme or is absolute, else `folder/url`.
    static func resolve(_ url: String, in folder: String) -> String {
        if url.hasPrefix("/") || url.contains("://") || folder.isEmpty { return url }
        return folder.hasSuffix("/") ? folder + url : folder + "/" + url
    }
}
