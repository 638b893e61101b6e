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

    @Test(
        "the file changed while the server was down: contentChanged and never a byte of the new version; a new reader reads it"
    )
    func changedWhileDown() throws {
        let fault = try ServerFault()
        let original = fault.file
        let source = fault.source()
        let (start, thread) = try Self.readStart(fault, source, count: 512 << 10)
        // A player's buffer: the fetch runs ahead of the reader, which is still behind when the server goes.
        let ahead = PausedFetchTests.wait(seconds: 30) { fault.heldFromStart >= 1_500_000 }
        try #require(ahead)
        fault.server.stop(signal: SIGKILL)
        try fault.changeFile()
        try fault.server.start()
        // The resume meets the new version while the reader is still behind (the cache drops the old bytes).
        let dropped = PausedFetchTests.wait(seconds: 30) { fault.cache.cachedRanges(of: fault.url).isEmpty }
        try #require(dropped)
        let (rest, error) = Reading.read(source)
        #expect(error?.kind == .contentChanged, "\(String(describing: error))")
        let read = start + rest
        #expect(Reading.difference(read, original.prefix(read.count)) == nil, "only bytes of the first version")
        source.close()
        // A new reader reads the new version.
        let again = fault.source()
        let (bytes, againError) = Reading.read(again)
        #expect(againError == nil, "\(String(describing: againError))")
        #expect(Reading.difference(bytes, fault.file) == nil)
        again.close()
        #expect(LoaderResources.waitUntilReleased(fault.loader, thread: thread, port: fault.server.port) == nil)
    }
}
