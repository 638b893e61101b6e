import Foundation
import PlaybackTesting
import Testing

@testable import Loading

/// Connections kept and opened ahead: a preconnect's connection serves the next fetch, what the server says of
/// keeping one is read, and the number kept is bounded. nginx's access log (its `$connection` number) and
/// libcurl's count of connections it opened say which connection served what.
@Suite(
    "Connections: preconnect, keep-alive and the bound", .enabled(if: TestHTTPServer.skipReason == nil, "needs nginx"))
struct ConnectionReuseTests {
    @Test("after preconnect, the next fetch opens no connection: it comes on the preconnect's, even after a 404")
    func preconnectServesTheNextFetch() async throws {
        let loader = HTTPLoader()
        let marker = "preconnect-\(UUID().uuidString)"
        let url = TestHTTPServer.url("a.mp4") + "?\(marker)"
        #expect(loader.preconnect(url))
        #expect(!loader.preconnect(url), "a server with a connection opening is not asked again")
        try await Requests.waitForPreconnects(loader)
        let origin = try #require(HTTPOrigin(url: url))
        #expect(loader.connectedOrigins == [origin])
        #expect(try await Requests.fetch(url, through: loader) == 206)
        #expect(loader.statistics.connectionsOpened == 1, "the fetch reused the preconnect's connection")
        #expect(loader.statistics.preconnects == 1)
        let logged = await Requests.logged(marker, count: 2)
        try #require(logged.count == 2)
        #expect(logged[0].request.hasPrefix("HEAD "))
        #expect(logged[1].request.hasPrefix("GET "))
        #expect(logged[0].connection == logged[1].connection && logged[0].connection != 0)
        #expect(logged[1].connectionRequests == 2)

        // A preconnect the server refuses (404) still leaves its connection for the next fetch.
        let other = HTTPLoader()
        let missing = "preconnect-404-\(UUID().uuidString)"
        #expect(other.preconnect(TestHTTPServer.url("missing.bin") + "?\(missing)"))
        try await Requests.waitForPreconnects(other)
        #expect(try await Requests.fetch(TestHTTPServer.url("a.mp4") + "?\(missing)", through: other) == 206)
        #expect(other.statistics.connectionsOpened == 1)
        let refused = await Requests.logged(missing, count: 2)
        try #require(refused.count == 2)
        #expect(refused.map(\.status) == [404, 206])
        #expect(refused[0].connection == refused[1].connection)
    }

    @Test("without a preconnect, the first fetch opens the connection (the counts above are the loader's own)")
    func fetchWithoutPreconnectOpensOne() async throws {
        let loader = HTTPLoader()
        let url = TestHTTPServer.url("a.mp4") + "?cold-\(UUID().uuidString)"
        #expect(try await Requests.fetch(url, through: loader) == 206)
        #expect(loader.statistics.connectionsOpened == 1)
        #expect(try await Requests.fetch(url, through: loader) == 206)
        #expect(loader.statistics.connectionsOpened == 1, "the second fetch reused it")
        #expect(loader.statistics.preconnects == 0)
        #expect(!loader.preconnect(url), "connected already: no preconnect")
    }

    @Test("the server's Keep-Alive timeout (nginx says 75 s) bounds how long a connection is reused, less a second")
    func serverKeepAliveTimeout() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.idleLifetime = 300
        let loader = HTTPLoader(configuration: configuration)
        let url = TestHTTPServer.url("a.mp4") + "?keep-alive-\(UUID().uuidString)"
        let origin = try #require(HTTPOrigin(url: url))
        #expect(loader.keepAliveLimit(of: origin) == 300, "nothing heard yet: the configured lifetime")
        #expect(try await Requests.fetch(url, through: loader) == 206)
        #expect(loader.keepAliveLimit(of: origin) == 74)
        #expect(HTTPLoader().keepAliveLimit(of: origin) == 60, "the default lifetime, below the server's")
        #expect(CurlTransfer.keepAliveTimeout("timeout=5, max=1000") == 5)
        #expect(CurlTransfer.keepAliveTimeout("max=100") == nil)
    }

    @Test("at most maximumIdleConnections are kept: past it the one idle longest is closed and opened again")
    func keptConnectionsAreBounded() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.maximumIdleConnections = 2
        let loader = HTTPLoader(configuration: configuration)
        let marker = "bound-\(UUID().uuidString)"
        // Three servers (the ports are origins of their own), one after another: the fast ports (a request on the 2
        // Mbit/s one, beside the suite's benchmarks, waited behind their downloads long enough to be made again).
        let urls = [TestHTTPServer.Link.unshaped, .mbit20, .mbit8].map {
            TestHTTPServer.url("a.mp4", over: $0) + "?\(marker)"
        }
        for url in urls { #expect(try await Requests.fetch(url, through: loader) == 206) }
        #expect(loader.statistics.connectionsOpened == 3)
        #expect(try await Requests.fetch(urls[2], through: loader) == 206)
        #expect(loader.statistics.connectionsOpened == 3, "the last server's connection was kept")
        #expect(try await Requests.fetch(urls[0], through: loader) == 206)
        #expect(loader.statistics.connectionsOpened == 4, "the first server's, idle longest, was closed at the third")
        let logged = await Requests.logged(marker, count: 5)
        #expect(Set(logged.map(\.connection)).count == 4, "nginx saw four connections")
    }

    @Test("origins: scheme, host and port, the scheme's port by default; other schemes have none")
    func origins() {
        #expect(HTTPOrigin(url: "http://Example.com/a.mp4") == HTTPOrigin(url: "http://example.com:80/b.mp4"))
        #expect(HTTPOrigin(url: "https://user@cdn.test/x")?.description == "https://cdn.test:443")
        #expect(HTTPOrigin(url: "http://[::1]:8080/a")?.description == "http://[::1]:8080")
        #expect(HTTPOrigin(url: "http://[::1]/a")?.port == 80)
        #expect(HTTPOrigin(url: "http://127.0.0.1:18008?q")?.port == 18008)
        #expect(HTTPOrigin(url: "file:///tmp/a.mp4") == nil)
        #expect(HTTPOrigin(url: "http://host:99999/") == nil)
        #expect(HTTPOrigin(url: "http:///a") == nil)
    }
}

/// A connection idle longer than the loader's old lifetime (5 s) is reused; a loader with a shorter lifetime opens
/// another. It waits 6 s of real time: scripts/test-groups.sh runs it in the realtime group.
@Suite(
    "Connections: kept through an idle longer than 5 s", .enabled(if: TestHTTPServer.skipReason == nil, "needs nginx"))
struct ConnectionIdleTests {
    @Test("6 s idle: the default loader reuses its connection (nginx sees one); a 1 s lifetime opens a new one")
    func keptThroughIdle() async throws {
        let kept = HTTPLoader()
        var short = HTTPLoader.Configuration()
        short.idleLifetime = 1
        let dropped = HTTPLoader(configuration: short)
        let marker = "idle-\(UUID().uuidString)"
        let keptURL = TestHTTPServer.url("a.mp4") + "?\(marker)-kept"
        let droppedURL = TestHTTPServer.url("a.mp4") + "?\(marker)-dropped"
        #expect(try await Requests.fetch(keptURL, through: kept) == 206)
        #expect(try await Requests.fetch(droppedURL, through: dropped) == 206)
        try await Task.sleep(for: .seconds(6))
        #expect(kept.connectedOrigins?.count == 1)
        #expect(dropped.connectedOrigins == [])
        #expect(try await Requests.fetch(keptURL, through: kept) == 206)
        #expect(try await Requests.fetch(droppedURL, through: dropped) == 206)
        #expect(kept.statistics.connectionsOpened == 1)
        #expect(dropped.statistics.connectionsOpened == 2)
        let keptLog = await Requests.logged("\(marker)-kept", count: 2)
        let droppedLog = await Requests.logged("\(marker)-dropped", count: 2)
        try #require(keptLog.count == 2 && droppedLog.count == 2)
        #expect(keptLog[0].connection == keptLog[1].connection && keptLog[1].connectionRequests == 2)
        #expect(droppedLog[0].connection != droppedLog[1].connection && droppedLog[1].connectionRequests == 1)
    }
}
