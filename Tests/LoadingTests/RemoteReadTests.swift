import Foundation
import Loading
import PlaybackTesting
import Testing

/// Reads through the loader and the byte cache from the real server (nginx on the loopback).
@Suite("Remote reads against nginx", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RemoteReadTests {
    /// Every byte of `source` from its current position to the end, in reads of `chunk` bytes.
    static func readAll(_ source: RemoteByteSource, chunk: Int = 32 << 10) throws(MediaError) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw in try source.read(into: raw) }
            } catch let error as MediaError {
                throw error
            } catch {
                fatalError("only MediaError is thrown")
            }
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    static func local(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestHTTPServer.localPath(name))))
    }

    @Test(
        "a whole file arrives byte for byte, in one transfer, and its length is known",
        arguments: ["a.mp4", "b.mp4", "c.webm"])
    func wholeFile(name: String) throws {
        let cache = ByteCache()
        let source = RemoteByteSource(url: TestHTTPServer.url(name), cache: cache)
        defer { source.close() }
        let bytes = try Self.readAll(source)
        let expected = try Self.local(name)
        #expect(bytes == expected)
        #expect(source.size == Int64(expected.count))
        let stats = cache.currentStatistics
        #expect(stats.transfersStarted == 1)
        #expect(stats.bytesFetched == Int64(expected.count))
        #expect(source.progress.timeToFirstByte != nil)
    }

    @Test("a seek to the tail fetches a byte range; reading the start afterwards fetches only what is missing")
    func tailThenStart() throws {
        let cache = ByteCache()
        let expected = try Self.local("a.mp4")
        let source = RemoteByteSource(url: TestHTTPServer.url("a.mp4"), cache: cache)
        defer { source.close() }
        try source.seek(to: Int64(expected.count - 50_000))
        let tail = try Self.readAll(source)
        #expect(tail == Array(expected.suffix(50_000)))
        try source.seek(to: 0)
        let whole = try Self.readAll(source)
        #expect(whole == expected)
        let stats = cache.currentStatistics
        #expect(stats.transfersStarted == 2)
        #expect(stats.bytesFetched == Int64(expected.count), "the tail is not fetched twice")
        #expect(cache.cachedRanges(of: TestHTTPServer.url("a.mp4")) == [0..<Int64(expected.count)])
    }

    @Test("two readers of one uncached URL cause one fetch")
    func twoReadersOneFetch() async throws {
        let cache = ByteCache()
        let url = TestHTTPServer.url("a.mp4", over: .mbit20)
        let expected = try Self.local("a.mp4")
        let readers = (0..<2).map { _ in RemoteByteSource(url: url, cache: cache) }
        let results = await withTaskGroup(of: [UInt8]?.self) { group in
            for reader in readers {
                group.addTask { await Self.onThread { try? Self.readAll(reader) } }
            }
            var all: [[UInt8]?] = []
            for await result in group { all.append(result) }
            return all
        }
        for reader in readers { reader.close() }
        #expect(results.allSatisfy { $0 == expected })
        let stats = cache.currentStatistics
        #expect(stats.transfersStarted == 1, "\(stats)")
        #expect(stats.bytesFetched == Int64(expected.count))
    }

    /// Runs blocking work on a thread of its own (reads block; never on the cooperative pool).
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    @Test("HTTP errors, refused connections and unknown hosts are typed errors naming the URL")
    func errors() throws {
        let cases: [(String, MediaError.Kind, Int32?)] = [
            (TestHTTPServer.url("missing.mp4"), .httpStatus, 404),
            (TestHTTPServer.url("status/500"), .httpStatus, 500),
            ("http://127.0.0.1:1/a.mp4", .connectionRefused, nil),
            ("http://no-such-host.invalid/a.mp4", .hostNotFound, nil),
        ]
        for (url, kind, code) in cases {
            let source = RemoteByteSource(url: url, cache: ByteCache())
            defer { source.close() }
            do {
                _ = try Self.readAll(source)
                Issue.record("\(url) read without an error")
            } catch {
                #expect(error.kind == kind, "\(url): \(error)")
                #expect(error.url == url)
                if let code { #expect(error.code == code, "\(error)") }
                #expect(error.description.contains(url))
            }
        }
    }

    @Test("a server without byte ranges: reading from the start works; a read that needs a range fails clearly")
    func noRanges() throws {
        let expected = try Self.local("a.mp4")
        let cache = ByteCache()
        let url = TestHTTPServer.url("noranges/a.mp4")
        let source = RemoteByteSource(url: url, cache: cache)
        defer { source.close() }
        #expect(try Self.readAll(source) == expected)
        let other = RemoteByteSource(url: TestHTTPServer.url("noranges/b.mp4"), cache: cache)
        defer { other.close() }
        try other.seek(to: 20_000)
        #expect(throws: MediaError.self) { _ = try Self.readAll(other) }
        do {
            _ = try Self.readAll(other)
        } catch {
            #expect(error.kind == .rangeNotSupported, "\(error)")
        }
    }

    @Test("a stalled connection times out with a typed error")
    func stall() throws {
        var configuration = HTTPLoader.Configuration()
        configuration.stallTimeout = 1
        let loader = HTTPLoader(configuration: configuration)
        let source = RemoteByteSource(url: TestHTTPServer.url("stall/a.mp4"), cache: ByteCache(), transport: loader)
        defer { source.close() }
        do {
            _ = try Self.readAll(source)
            Issue.record("a stalled transfer read to the end")
        } catch {
            #expect(error.kind == .timedOut, "\(error)")
        }
    }
}
