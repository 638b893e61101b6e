import Foundation
import PlaybackTesting
import Testing

@testable import Loading

/// HTTP/2 where the server offers it: an nginx of the test's own serving HTTPS with HTTP/2 (a self-signed certificate
/// the loader is told to trust), its responses slowed so that transfers overlap. Two transfers at once, or a
/// preconnect and the fetch right after it, share one connection (multiplexed); the same over HTTP/1.1 needs two.
@Suite(
    "Connections: HTTP/2 multiplexing over TLS",
    .enabled(if: PrivateHTTPServer.skipReason == nil && OpenSSL.path != nil, "needs nginx and openssl"))
struct HTTP2ReuseTests {
    /// A folder with `clip.bin` (`ServerFault.size` bytes) and a self-signed certificate for 127.0.0.1 (`cert.pem`, `key.pem`).
    static func makeRoot() throws -> URL {
        let root = try TemporaryDirectory.make(prefix: "playctl-h2")
        try Data(ServerFault.bytes(seed: 5)).write(to: root.appendingPathComponent("clip.bin"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(OpenSSL.path))
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", root.appendingPathComponent("key.pem").path, "-out",
            root.appendingPathComponent("cert.pem").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl made the certificate")
        return root
    }

    /// Two transfers of 64 KB each, started together, over a server sending 128 KB a second (half a second each,
    /// overlapping): the connections the loader opened.
    static func twoAtOnce(_ server: PrivateHTTPServer, root: URL, preconnect: Bool) async throws -> (Int, [Int]) {
        var configuration = HTTPLoader.Configuration()
        configuration.certificateAuthorities = root.appendingPathComponent("cert.pem").path
        let loader = HTTPLoader(configuration: configuration)
        let url = server.url("clip.bin")
        if preconnect { loader.preconnect(url) }
        async let first = Requests.fetch(url, through: loader, count: 64 << 10)
        async let second = Requests.fetch(url + "?second", through: loader, count: 64 << 10)
        let statuses = try await [first, second]
        return (loader.statistics.connectionsOpened, statuses)
    }

    @Test("HTTPS with HTTP/2: two transfers at once share one connection; so do a preconnect and the fetches after it")
    func multiplexed() async throws {
        let root = try Self.makeRoot()
        defer { TemporaryDirectory.remove(root) }
        let tls = (root.appendingPathComponent("cert.pem").path, root.appendingPathComponent("key.pem").path)
        let server = try PrivateHTTPServer(root: root.path, bytesPerSecond: 128 << 10, tls: tls)
        let (opened, statuses) = try await Self.twoAtOnce(server, root: root, preconnect: false)
        #expect(statuses == [206, 206])
        #expect(opened == 1, "one HTTP/2 connection for both")
        let (afterPreconnect, more) = try await Self.twoAtOnce(server, root: root, preconnect: true)
        #expect(more == [206, 206])
        #expect(afterPreconnect == 1, "the preconnect's connection serves both fetches")
    }

    @Test("the same over plain HTTP/1.1: two transfers at once need two connections (the test above can fail)")
    func http1NeedsTwo() async throws {
        let root = try Self.makeRoot()
        defer { TemporaryDirectory.remove(root) }
        let server = try PrivateHTTPServer(root: root.path, bytesPerSecond: 128 << 10)
        let loader = HTTPLoader(configuration: HTTPLoader.Configuration())
        let url = server.url("clip.bin")
        // The first transfer takes 4 s (512 KB at 128 KB/s); the second starts once the first has its connection, so
        // the two overlap however late a loaded machine runs this task (CI's once started the second after the first
        // had ended, when started together, and reused its connection).
        async let first = Requests.fetch(url, through: loader, count: 512 << 10)
        try await waitUntil("the first transfer to open its connection") {
            loader.statistics.connectionsOpened >= 1
        }
        let second = try await Requests.fetch(url + "?second", through: loader, count: 64 << 10)
        let statuses = try await [first, second]
        #expect(statuses == [206, 206])
        #expect(loader.statistics.connectionsOpened == 2)
    }
}

/// The openssl executable, which makes the test's certificate.
enum OpenSSL {
    static var path: String? {
        ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
