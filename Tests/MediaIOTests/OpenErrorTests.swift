import Foundation
import MediaIO
import PlaybackTesting
import Testing

/// Bad input is normal input: each kind gets its own typed error naming the file and FFmpeg's reason.
@Suite("Typed errors for bad input")
struct OpenErrorTests {
    static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func expectError(
        _ kind: MediaError.Kind, opening path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try Demuxer(url: path)
            Issue.record("opening \(path) succeeded; expected \(kind)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.url == path, sourceLocation: sourceLocation)
            #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
            #expect(error.description.contains(path), sourceLocation: sourceLocation)
        }
    }

    @Test func missingFile() {
        Self.expectError(.fileNotFound, opening: "/nonexistent-dir/missing.mp4")
    }

    @Test func directory() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        Self.expectError(.isDirectory, opening: dir.path)
    }

    @Test func emptyFile() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        Self.expectError(.emptyFile, opening: try Self.write([], "empty.mp4", in: dir))
    }

    @Test func randomBytesAndTextAreNotMedia() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        var state: UInt64 = 42
        let noise = (0..<65_536).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        Self.expectError(.notMedia, opening: try Self.write(noise, "noise.mp4", in: dir))
        let text = Array("These are notes, not a video.\nSecond line.\n".utf8)
        Self.expectError(.notMedia, opening: try Self.write(text, "notes.txt", in: dir))
        Self.expectError(.notMedia, opening: try Self.write(text, "notes.mp4", in: dir))
    }

    @Test("a truncated MP4 is reported as truncated, with the moov atom first or last")
    func truncated() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let faststart = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("a.mp4"))))
        Self.expectError(
            .truncated, opening: try Self.write(Array(faststart.prefix(faststart.count * 4 / 10)), "cut.mp4", in: dir))
        let moovLast = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("b.mp4"))))
        Self.expectError(
            .truncated, opening: try Self.write(Array(moovLast.prefix(moovLast.count / 2)), "cut2.mp4", in: dir))
    }

    @Test("a file with only a subtitle stream has no decodable stream")
    func noDecodableStream() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = Array("1\n00:00:00,000 --> 00:00:01,000\nHello\n\n2\n00:00:01,000 --> 00:00:02,000\nWorld\n".utf8)
        Self.expectError(.noDecodableStream, opening: try Self.write(srt, "subs.srt", in: dir))
    }

    @Test("a video codec FFmpeg has no decoder for is unsupported")
    func unsupportedCodec() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("rotated.mp4"))))
        let tag = Array("avc1".utf8)
        var replaced = 0
        for i in 0..<(bytes.count - 4) where Array(bytes[i..<i + 4]) == tag {
            bytes.replaceSubrange(i..<i + 4, with: Array("qqv1".utf8))
            replaced += 1
        }
        try #require(replaced > 0)
        Self.expectError(.unsupportedCodec, opening: try Self.write(bytes, "unknown-codec.mp4", in: dir))
    }

    @Test("an unreadable file is permission denied, even for root")
    func permissionDenied() throws {
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("b.mp4")))), "locked.mp4", in: dir)
        chmod(path, 0)
        // Root reads anything; open it with an unprivileged file-system identity (per thread on Linux).
        let wasRoot = getuid() == 0
        if wasRoot { Self.setFileSystemIdentity(65_534) }
        defer { if wasRoot { Self.setFileSystemIdentity(0) } }
        Self.expectError(.permissionDenied, opening: path)
    }

    /// glibc's setfsuid/setfsgid (not in Swift's Glibc module): change the calling thread's file-system identity.
    static func setFileSystemIdentity(_ id: UInt32) {
        typealias SetID = @convention(c) (UInt32) -> Int32
        let handle = dlopen(nil, RTLD_NOW)
        for name in ["setfsgid", "setfsuid"] {
            guard let symbol = dlsym(handle, name) else { continue }
            _ = unsafeBitCast(symbol, to: SetID.self)(id)
        }
    }
}
