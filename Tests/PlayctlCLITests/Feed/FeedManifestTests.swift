import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed`'s MANIFEST: a JSON file (an object with "entries", or the array alone) or a folder, and every way
/// one can be wrong, each error naming the file.
@Suite("playctl feed: manifests")
struct FeedManifestTests {
    /// `text` written to `name` in a new folder; the folder is removed after `body`.
    static func withFile<T>(_ name: String, _ text: String, _ body: (String) throws -> T) throws -> T {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    /// The error loading `text` as a manifest gives.
    static func error(_ text: String) throws -> (path: String, error: FeedInputError?) {
        try withFile("feed.json", text) { path in
            do throws(FeedInputError) {
                _ = try FeedManifest.load(path)
                return (path, nil)
            } catch {
                return (path, error)
            }
        }
    }

    @Test("an object with entries: kinds, sizes, durations; relative paths resolved against the manifest's folder")
    func object() throws {
        let text = """
            {"name": "ignored", "entries": [
              {"url": "a.mp4", "kind": "video", "size": 398568, "duration": 6},
              {"url": "sub/still.jpg", "kind": "image", "extra": true},
              {"url": "http://example.com/b.mp4", "kind": "video", "size": null},
              {"url": "/abs/c.webm", "kind": "video", "duration": 4.5}
            ]}
            """
        try Self.withFile("feed.json", text) { path in
            let folder = (path as NSString).deletingLastPathComponent
            let manifest = try FeedManifest.load(path)
            #expect(
                manifest.entries == [
                    FeedEntry(url: folder + "/a.mp4", kind: .video, byteSize: 398568, duration: 6),
                    FeedEntry(url: folder + "/sub/still.jpg", kind: .image),
                    FeedEntry(url: "http://example.com/b.mp4", kind: .video),
                    FeedEntry(url: "/abs/c.webm", kind: .video, duration: 4.5),
                ])
            #expect(manifest.path == path && manifest.skipped.isEmpty)
        }
    }

    @Test("the array alone is a manifest too")
    func bareArray() throws {
        let manifest = try FeedManifest(
            path: "feed.json", json: JSONValue(parsing: #"[{"url": "x.png", "kind": "image"}]"#))
        #expect(manifest.entries == [FeedEntry(url: "x.png", kind: .image)], "no folder: the path as given")
        #expect(FeedManifest.resolve("a.mp4", in: "Media") == "Media/a.mp4")
        #expect(FeedManifest.resolve("a.mp4", in: "/") == "/a.mp4")
        #expect(FeedManifest.folder(of: "/feed.json") == "/" && FeedManifest.folder(of: "Media/feed.json") == "Media")
    }

    @Test("a folder: media files by name, images by extension, audio-only left out, the rest ignored")
    func folder() throws {
        let manifest = try FeedManifest.load(MediaFixtures.directory.path)
        let names = manifest.entries.map { ($0.url as NSString).lastPathComponent }
        #expect(names == ["a.mp4", "b.mp4", "c.webm", "offset.ts", "rotated.mp4", "still.jpg"])
        #expect(manifest.entries.map(\.kind) == [.video, .video, .video, .video, .video, .image])
        #expect(manifest.skipped == [MediaFixtures.path("tone.m4a")])
        // Hidden files, subfolders (even named like media) and other files are not entries.
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        for name in [".hidden.mp4", "notes.txt", "B.PNG", "a.MOV", "x.gif", "song.mp3"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("dir.mp4"), withIntermediateDirectories: true)
        let mixed = try FeedManifest.load(folder.path)
        #expect(mixed.entries.map { ($0.url as NSString).lastPathComponent } == ["B.PNG", "a.MOV", "x.gif"])
        #expect(mixed.entries.map(\.kind) == [.image, .video, .image])
        #expect(mixed.skipped.map { ($0 as NSString).lastPathComponent } == ["song.mp3"])
    }

    @Test("the committed example manifest lists the clips of Media/")
    func example() throws {
        let manifest = try FeedManifest.load(MediaFixtures.path("feed.json"))
        #expect(manifest.entries.count == 12)
        for entry in manifest.entries {
            #expect(FileManager.default.fileExists(atPath: entry.url), "\(entry.url)")
        }
    }

    @Test("a missing file, a folder without media, text that is not JSON: named, with the reason")
    func unreadable() throws {
        #expect(
            throws: FeedInputError.unreadable(file: "/nonexistent/feed.json", reason: "No such file or directory")
        ) { try FeedManifest.load("/nonexistent/feed.json") }
        let empty = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(empty) }
        #expect(throws: FeedInputError.empty(file: empty.path, reason: "no video or image files")) {
            try FeedManifest.load(empty.path)
        }
        let notJSON = try Self.error("{\"entries\": [\n  {\"url\": 'a.mp4'}]}")
        #expect(
            notJSON.error
                == .notJSON(file: notJSON.path, reason: "Invalid value", line: 2, column: 11))
        // Foundation's reader (the product reads JSON with it) lets a trailing comma pass.
        let trailing = try Self.error("[{\"url\": \"a.mp4\", \"kind\": \"video\"},]")
        #expect(trailing.error == nil)
        #expect(notJSON.error?.description.hasPrefix(notJSON.path + ": not JSON: ") == true)
    }

    @Test("JSON of the wrong shape: each mistake names the file and where it is")
    func wrongShape() throws {
        let cases: [(String, String, String)] = [
            ("3", "", "expected {\"entries\": [...]} or an array of entries"),
            ("{\"items\": []}", "", "expected {\"entries\": [...]} or an array of entries"),
            ("{\"entries\": {}}", "entries", "expected an array of entries"),
            ("{\"entries\": [3]}", "entries[0]", "expected an object"),
            ("[{\"kind\": \"video\"}]", "[0]", "missing \"url\""),
            ("[{\"url\": 3, \"kind\": \"video\"}]", "[0].url", "expected a string"),
            ("[{\"url\": \"\", \"kind\": \"video\"}]", "[0].url", "empty"),
            ("[{\"url\": \"a\"}]", "[0]", "missing \"kind\""),
            (
                "[{\"url\": \"a\", \"kind\": \"video\"}, {\"url\": \"b\", \"kind\": \"audio\"}]", "[1].kind",
                "unknown kind 'audio' (expected video or image)"
            ),
            (
                "[{\"url\": \"a\", \"kind\": \"video\", \"size\": 1.5}]", "[0].size",
                "expected a whole number, 0 or more"
            ),
            ("[{\"url\": \"a\", \"kind\": \"video\", \"size\": -1}]", "[0].size", "expected a whole number, 0 or more"),
            (
                "[{\"url\": \"a\", \"kind\": \"video\", \"duration\": \"6\"}]", "[0].duration",
                "expected a number, 0 or more"
            ),
        ]
        for (text, where_, reason) in cases {
            let found = try Self.error(text)
            #expect(found.error == .invalid(file: found.path, path: where_, reason: reason), "\(text)")
        }
        for text in ["[]", "{\"entries\": []}"] {
            let found = try Self.error(text)
            #expect(found.error == .empty(file: found.path, reason: "no entries"), "\(text)")
        }
        let kind = try Self.error("[{\"url\": \"b\", \"kind\": \"audio\"}]")
        #expect(kind.error?.description == "\(kind.path): [0].kind: unknown kind 'audio' (expected video or image)")
    }
}
