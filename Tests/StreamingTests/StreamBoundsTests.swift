import Foundation
import Loading
import PlaybackTesting
import Testing

@testable import Streaming

/// The counts a stream session keeps are bounded: its AES-128 keys and its histories.
@Suite("Stream session bounds")
struct StreamBoundsTests {
    @Test(
        "at most 32 AES-128 keys are kept, the least recently used dropped first",
        .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
    func keyBound() throws {
        let root = try TemporaryDirectory.make(prefix: "playctl-keys")
        defer { TemporaryDirectory.remove(root) }
        for index in 0..<41 {
            try Data((0..<16).map { UInt8((index + $0) & 0xFF) }).write(
                to: root.appendingPathComponent("k\(index).key"))
        }
        let server = try PrivateHTTPServer(root: root.path)
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 1 << 20), transport: HTTPLoader())
        let keys = SegmentKeys()
        #expect(keys.limit == 32)
        for index in 0..<40 {
            let key = try keys.key(server.url("k\(index).key"), loading: loading)
            #expect(key == (0..<16).map { UInt8((index + $0) & 0xFF) })
            #expect(keys.keptURLs.count == min(index + 1, 32))
        }
        #expect(keys.keptURLs == (8..<40).map { server.url("k\($0).key") })
        // Using key 8 makes it the newest: the next new key drops key 9.
        _ = try keys.key(server.url("k8.key"), loading: loading)
        _ = try keys.key(server.url("k40.key"), loading: loading)
        #expect(keys.keptURLs.count == 32)
        #expect(keys.keptURLs.first == server.url("k10.key"))
        #expect(keys.keptURLs.suffix(2) == [server.url("k8.key"), server.url("k40.key")])
    }

    @Test("a bounded history keeps the newest entries: 100 variant switches of a session, the machine's 16")
    func histories() {
        var switches: [Int] = []
        for index in 0..<250 { switches.appendKeepingNewest(index, limit: StreamSession.switchHistoryLimit) }
        #expect(StreamSession.switchHistoryLimit == 100)
        #expect(switches == Array(150..<250))
        var one: [Int] = []
        for index in 0..<3 { one.appendKeepingNewest(index, limit: 0) }
        #expect(one == [2], "a limit under 1 keeps one")
        #expect(ABRConfiguration.standard.historyLimit == 16)
    }
}
