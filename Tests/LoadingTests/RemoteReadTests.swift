import Foundation
import Loading
import PlaybackTesting
import Testing

/// Reads through the loader and the byte cache from the real server (nginx on the loopback).
@Suite("Remote reads against nginx", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RemoteReadTests {
    @Test(
        "a whole file arrives byte for byte, in one fetch (a chunk-sized range, then ranges of the link's second), and its length is known",
        arguments: ["a.mp4", "b.mp4", "c.webm"])
    func wholeFile(name: String) throws {
        let cache = ByteCache()
        let source = RemoteByteSource(url: TestHTTPServer.url(name), cache: cache)
        defer { source.close() }
        let bytes = try Reading.readAll(source)
        let expected = try Reading.local(name)
        #expect(bytes == expected)
        #expect(source.size == Int64(expected.count))
        let stats = cache.currentStatistics
        #expect(stats.fetchesStarted == 1, "\(stats)")
        #expect(stats.transfersStarted <= (expected.count + ByteCache.chunkSize - 1) / ByteCache.chunkSize, "\(stats)")
        #expect(stats.bytesFetched == Int64(expected.count))
        #expect(source.progress.timeToFirstByte != nil)
    }

    @Test("a seek to the tail fetches a byte range; reading the start afterwards fetches only what is missing")
    func tailThenStart() throws {
        let cache = ByteCache()
        let expected = try Reading.local("a.mp4")
        let source = RemoteByteSource(url: TestHTTPServer.url("a.mp4"), cache: cache)
        defer { source.close() }
        try source.seek(to: Int64(expected.count - 50_000))
        let tail = try Reading.readAll(source)
        #expect(tail == Array(expected.suffix(50_000)))
        try source.seek(to: 0)
        let whole = try Reading.readAll(source)
        #expect(whole == expected)
        let stats = cache.currentStatistics
        #expect(stats.fetchesStarted == 2, "\(stats)")
        #expect(stats.bytesFetched == Int64(expected.count), "the tail is not fetched twice")
        #expect(cache.cachedRanges(of: TestHTTPServer.url("a.mp4")) == [0..<Int64(expected.count)])
    }

    @Test("two readers of one uncached URL cause one fetch")
    func twoReadersOneFetch() async throws {
        let cache = ByteCache()
        let url = TestHTTPServer.url("a.mp4", over: .mbit20)
        let expected = try Reading.local("a.mp4")
        let readers = (0..<2).map { _ in RemoteByteSource(url: url, cache: cache) }
        let results = await withTaskGroup(of: [UInt8]?.self) { group in
            for reader in readers {
                group.addTask { await Reading.onThread { try? Reading.readAll(reader) } }
            }
            var all: [[UInt8]?] = []
            for await result in group { all.append(result) }
            return all
        }
        for reader in readers { reader.close() }
        #expect(results.allSatisfy { $0 == expected })
        let stats = cache.currentStatistics
        #expect(stats.fetchesStarted == 1, "\(stats)")
        #expect(stats.bytesFetched == Int64(expected.count))
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
                _ = try Reading.readAll(source)
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
        let expected = try Reading.local("a.mp4")
        let cache = ByteCache()
        let url = TestHTTPServer.url("noranges/a.mp4")
        let source = RemoteByteSource(url: url, cache: cache)
        defer { source.close() }
        #expect(try Reading.readAll(source) == expected)
        let other = RemoteByteSource(url: TestHTTPServer.url("noranges/b.mp4"), cache: cache)
        defer { other.close() }
        try other.seek(to: 20_000)
        #expect(throws: MediaError.self) { _ = try Reading.readAll(other) }
        do {
            _ = try Reading.readAll(other)
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
            _ = try Reading.readAll(source)
            Issue.record("a stalled transfer read to the end")
        } catch {
            #expect(error.kind == .timedOut, "\(error)")
        }
    }
}
