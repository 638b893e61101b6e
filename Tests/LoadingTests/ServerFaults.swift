import Foundation
import Loading
import PlaybackTesting

/// A test's own server for breaking it: a folder with one file of seeded random bytes, a private nginx serving
/// it at 1 MB/s (a kill lands mid-transfer), a loader of its own that goes idle quickly, and a cache.
final class ServerFault {
    static let size = 4 << 20
    static let rate = 1 << 20

    let root: URL
    let server: PrivateHTTPServer
    let loader: HTTPLoader
    let cache = ByteCache()
    /// The file's bytes as served now.
    private(set) var file: [UInt8]
    var url: String { server.url("clip.bin") }

    init() throws {
        root = try TemporaryDirectory.make(prefix: "playctl-faults")
        file = Self.bytes(seed: 1)
        try Data(file).write(to: root.appendingPathComponent("clip.bin"))
        server = try PrivateHTTPServer(root: root.path, bytesPerSecond: Self.rate)
        var configuration = HTTPLoader.Configuration()
        configuration.idleLifetime = 0.2
        configuration.connectTimeout = 2
        configuration.stallTimeout = 5
        loader = HTTPLoader(configuration: configuration)
    }

    deinit {
        server.stop()
        TemporaryDirectory.remove(root)
    }

    /// A reader of the file through the fixture's cache and loader.
    func source() -> RemoteByteSource { RemoteByteSource(url: url, cache: cache, transport: loader) }

    /// Replaces the file with other bytes of the same size (written aside and renamed, as a deploy does) whose
    /// modification time is ten seconds later, so nginx's ETag changes.
    func changeFile() throws {
        file = Self.bytes(seed: 2)
        let aside = root.appendingPathComponent("clip.bin.new")
        try Data(file).write(to: aside)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: aside.path)
        guard rename(aside.path, root.appendingPathComponent("clip.bin").path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// The bytes held for the file from its start (what has arrived so far, when read from the start).
    var heldFromStart: Int64 { cache.cachedRanges(of: url).first { $0.lowerBound == 0 }?.upperBound ?? 0 }

    static func bytes(seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var out = [UInt8](repeating: 0, count: size)
        out.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = random.next() }
        }
        return out
    }
}
