import Feed
import Foundation
import MediaIO
import PlaybackTesting
import PlayctlCLI

/// The feed a feed benchmark scrolls: the videos (`.mp4`) and images (`.jpg`) of one folder of the served media, in
/// name order (scripts/make-feed-media.sh makes `feed/`: 100 entries, hard links to 10 clips and 3 images).
public struct FeedMedia: Sendable {
    /// One file of the feed.
    public struct File: Sendable {
        public var name: String
        public var kind: FeedEntry.Kind
        public var bytes: Int64
        /// A video's duration in seconds and its picture size (nil for an image).
        public var duration: Double?
        public var width: Int?
        public var height: Int?
        /// The file's inode: entries that are hard links to one file share it.
        var inode: UInt64
    }

    /// The folder's name under the served folder (`feed`).
    public var folder: String
    /// The folder's path on this machine.
    public var directory: String
    public var files: [File]

    /// The folder the benchmark scrolls when `--file` is absent.
    public static let defaultFolder = "feed"
    /// The same feed in the rendition an app serves on a 3G-like link (640x360 at 500 kbit/s, smaller images): the
    /// 3G trace and the sweep scroll it when `--file` is absent. The full feed's 2-5 Mbit/s clips cannot play on a
    /// 1.6 Mbit/s link at all: every player shows a spinner on about nine swipes in ten and prefetching changes
    /// nothing (docs/feed-bench.md).
    public static let cellularFolder = "feed-3g"
    /// The script that makes it, relative to the repository root.
    static let makeScript = "scripts/make-feed-media.sh"

    /// Distinct files (hard links counted once).
    public var distinctFiles: Int { Set(files.map(\.inode)).count }

    /// The feed's entries, their URLs in `folder` under `base` (`http://127.0.0.1:18008`); with `copies` above 1,
    /// the feed again and again under other URLs (`.../feed/2/000.mp4`), so that no cache sees an entry twice.
    public func entries(base: String, copies: Int = 1) -> [FeedEntry] {
        (0..<max(copies, 1)).flatMap { copy in
            files.map { file in
                FeedEntry(
                    url: "\(base)/\(folder)/" + (copy == 0 ? "" : "\(copy)/") + file.name, kind: file.kind,
                    byteSize: file.bytes, duration: file.duration)
            }
        }
    }

    /// The folder `name` of the served media (`PLAYCTL_HTTP_ROOT`, else the repository's `.build/http-media`), read
    /// and probed.
    /// - Throws: `BenchFailure` saying how to make it when it is missing or holds nothing playable.
    public static func load(_ name: String?, default fallback: String = defaultFolder) throws(BenchFailure) -> FeedMedia
    {
        let folder = name ?? fallback
        let root = TestHTTPServer.root ?? Repository.path(".build/http-media")
        let directory = root + "/" + folder
        let hint =
            [defaultFolder, cellularFolder].contains(folder)
            ? "run \(makeScript) (scripts/bench.sh --feed does)" : "give --file a folder of \(root)"
        guard !folder.contains("..") else { throw .failed("no feed folder \(directory): \(hint)") }
        return try read(directory, folder: folder, hint: hint)
    }

    /// The .mp4 and .jpg files of `directory`, probed; `folder` names it in URLs, `hint` says how to make it.
    /// - Throws: `BenchFailure` when it is missing or holds fewer than 2 such files.
    public static func read(_ directory: String, folder: String, hint: String) throws(BenchFailure) -> FeedMedia {
        guard let names = DirectoryListing.names(in: directory) else {
            throw .failed("no feed folder \(directory): \(hint)")
        }
        var files: [File] = []
        for name in names.sorted() {
            let kind: FeedEntry.Kind
            if name.hasSuffix(".mp4") {
                kind = .video
            } else if name.hasSuffix(".jpg") {
                kind = .image
            } else {
                continue
            }
            let path = directory + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { continue }
            var file = File(
                name: name, kind: kind, bytes: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0)
            if kind == .video {
                let demuxer = try media { () throws(MediaError) in try Demuxer(url: path) }
                file.duration = demuxer.duration?.seconds
                file.width = demuxer.videoTrack?.width
                file.height = demuxer.videoTrack?.height
            }
            files.append(file)
        }
        guard files.count >= 2 else {
            throw .failed("the feed folder \(directory) holds \(files.count) .mp4/.jpg files (at least 2): \(hint)")
        }
        return FeedMedia(folder: folder, directory: directory, files: files)
    }
}
