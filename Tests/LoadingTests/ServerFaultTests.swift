import Foundation
import PlaybackTesting
import Testing

@testable import Loading

/// The server dies mid-transfer, comes back, or comes back with another file: reads resume with every byte right,
/// or fail with a typed error after the bytes that came, and never mix two versions. Each test has a server and a
/// loader of its own (the shared nginx serves the other tests), and ends checking the loader let everything go.
@Suite("Server faults at the loader level", .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct ServerFaultTests {
    /// Reads the first `count` bytes and returns them with the loader's thread id (it runs now).
    static func readStart(_ fault: ServerFault, _ source: RemoteByteSource, count: Int) throws -> ([UInt8], pid_t) {
        let (bytes, error) = Reading.read(source, limit: count)
        try #require(error == nil, "\(String(describing: error))")
        #expect(Reading.difference(bytes, fault.file.prefix(count)) == nil)
        let thread = try #require(fault.loader.threadID, "the loader's thread runs")
        #expect(LoaderResources.threadName(thread) == "playctl.http")
        try #require(fault.heldFromStart < Int64(ServerFault.size), "the transfer is under way")
        return (bytes, thread)
    }

    @Test("killed mid-transfer and restarted: the read resumes where it stopped and every byte is right")
    func killedAndRestarted() throws {
        let fault = try ServerFault()
        let source = fault.source()
        let (start, thread) = try Self.readStart(fault, source, count: 1 << 20)
        try fault.server.restart(signal: SIGKILL)
        let (rest, error) = Reading.read(source)
        #expect(error == nil, "\(String(describing: error))")
        #expect(Reading.difference(start + rest, fault.file) == nil)
        let stats = fault.cache.currentStatistics
        #expect(stats.bytesFetched == Int64(ServerFault.size), "resumed, not fetched again: \(stats)")
        #expect(stats.transfersStarted >= 2, "\(stats)")
        source.close()
        #expect(LoaderResources.waitUntilReleased(fault.loader, thread: thread, port: fault.server.port) == nil)
    }

    @Test("killed mid-transfer and not restarted: a typed error after every byte that came")
    func killedForGood() throws {
        let fault = try ServerFault()
        let source = fault.source()
        let (start, thread) = try Self.readStart(fault, source, count: 1 << 20)
        fault.server.stop(signal: SIGKILL)
        let (rest, error) = Reading.read(source)
        let read = start + rest
        #expect(error?.kind == .connectionRefused || error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(error?.url == fault.url)
        #expect(Reading.difference(read, fault.file.prefix(read.count)) == nil)
        #expect(Int64(read.count) == fault.heldFromStart, "the reader got every byte that came before the error")
        source.close()
        #expect(LoaderResources.waitUntilReleased(fault.loader, thread: thread, port: fault.server.port) == nil)
    }
}
