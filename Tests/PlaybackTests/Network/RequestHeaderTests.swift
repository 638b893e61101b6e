import Foundation
import Loading
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// HTTP request headers against the real server: scripts/netns.sh's `/auth/` answers 401 unless the request carries
/// `Authorization: Bearer playctl-test-token`.
@Suite("Request headers over HTTP", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RequestHeaderTests {
    static let token = "Bearer playctl-test-token"

    static func url(_ marker: String) -> String { TestHTTPServer.url("auth/a.mp4?\(marker)") }

    @Test("PlayerItem(url:headers:): with the header the item plays every frame of a.mp4 as ffmpeg decodes it")
    func itemWithHeaderPlays() async throws {
        let item = PlayerItem(
            url: Self.url("with-\(UUID().uuidString.prefix(8))"), headers: ["Authorization": Self.token],
            loading: RemoteLoading(cache: ByteCache()))
        let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        defer { player.invalidate() }
        #expect(item.status == .readyToPlay, "\(trace)")
        #expect(md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
    }

    @Test("without the header the item fails with a typed 401 naming the URL")
    func itemWithoutHeaderFails() async throws {
        let url = Self.url("without-\(UUID().uuidString.prefix(8))")
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache()))
        let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        defer { player.invalidate() }
        #expect(md5s.isEmpty)
        #expect(item.status == .failed, "\(trace)")
        let error = try #require(item.error)
        #expect(error.kind == .httpStatus && error.code == 401, "\(error)")
        #expect(error.url == url && "\(error)".contains("401"), "\(error)")
    }

    @Test("a wrong header's value is in no error or event: a 401 that names the URL and the status only")
    func headerValueNeverReported() async throws {
        let secret = "wrong-secret-\(UUID().uuidString)"
        let url = Self.url("wrong-\(UUID().uuidString.prefix(8))")
        let item = PlayerItem(
            url: url, headers: ["Authorization": "Bearer \(secret)", "X-Secret": secret],
            loading: RemoteLoading(cache: ByteCache()))
        let (_, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        defer { player.invalidate() }
        let error = try #require(item.error)
        #expect(error.code == 401)
        #expect(!"\(error)".contains(secret) && !error.reason.contains(secret))
        #expect(!trace.joined(separator: "\n").contains(secret))
    }

    @Test("HTTPLoader.Configuration.headers: a loader's default header is sent with every request")
    func loaderDefaultHeaders() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.headers = ["Authorization": Self.token]
        let loading = RemoteLoading(cache: ByteCache(), transport: HTTPLoader(configuration: configuration))
        let item = PlayerItem(url: Self.url("loader-\(UUID().uuidString.prefix(8))"), loading: loading)
        let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        defer { player.invalidate() }
        #expect(item.status == .readyToPlay, "\(trace)")
        #expect(md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
    }

    @Test("a request's header replaces the loader's of the same name (in any case)")
    func requestHeaderReplacesLoaders() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.headers = ["authorization": "Bearer not-this-one"]
        let loading = RemoteLoading(
            cache: ByteCache(), transport: HTTPLoader(configuration: configuration),
            headers: ["Authorization": Self.token])
        let source = loading.source(Self.url("replace-\(UUID().uuidString.prefix(8))"))
        defer { source.close() }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        #expect(count > 0)
        #expect(Array(buffer[4..<8]) == Array("ftyp".utf8))
    }
}
