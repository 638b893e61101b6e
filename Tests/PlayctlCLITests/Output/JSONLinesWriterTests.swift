import Locking
import PlaybackTesting
import PlayctlOutput
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("JSON Lines writer")
struct JSONLinesWriterTests {
    @Test func eachValueBecomesOneLine() throws {
        let lines = Locked<[String]>([])
        let writer = JSONLinesWriter { line in lines.withLock { $0.append(line) } }
        try writer.write(["event": "play", "note": "two\nlines"])
        try writer.write([1, 2])
        #expect(lines.withLock { $0 } == ["{\"event\":\"play\",\"note\":\"two\\nlines\"}\n", "[1,2]\n"])
    }

    @Test func fileWriterWritesAndClosesItsFile() throws {
        let path = temporaryPath("file")
        defer { unlink(path) }
        let writer = try JSONLinesWriter(creatingFileAt: path)
        try writer.write(["seconds": 1.5, "frame": 3])
        try writer.write(["seconds": .double(.nan)])
        writer.close()
        writer.close()
        #expect(throws: JSONLinesWriterError.closed) { try writer.write(nil) }
        let text = try readFile(path)
        #expect(text == "{\"seconds\":1.5,\"frame\":3}\n{\"seconds\":null}\n")
        #expect(try JSONValue.parseLines(text) == [["seconds": 1.5, "frame": 3], ["seconds": nil]])
    }

    @Test func openingAFileInAMissingDirectoryFails() {
        let path = "/nonexistent-playctl-dir/metrics.jsonl"
        #expect(throws: JSONLinesWriterError.cannotOpen(path: path, errno: ENOENT)) {
            try JSONLinesWriter(creatingFileAt: path)
        }
        let error = JSONLinesWriterError.cannotOpen(path: path, errno: ENOENT)
        #expect(error.description == "cannot open '\(path)': No such file or directory")
    }

    @Test func aReaderSeesEachLineAsSoonAsItIsWritten() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { Glibc.close(ends[0]) }
        let writer = JSONLinesWriter(fileDescriptor: ends[1], closesDescriptor: true)
        try writer.write(["event": "first"])
        // The writer is still open: the line must already be readable, not held in a buffer.
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "{\"event\":\"first\"}\n")
        writer.close()
        #expect(read(ends[0], &buffer, buffer.count) == 0, "closing the writer closed its end of the pipe")
    }

    @Test func writingToAClosedPipeReportsTheError() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        // Close-on-exec: a child another suite spawns meanwhile would inherit the read end and keep the pipe open
        // (CI once saw the write succeed).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        Glibc.close(ends[0])
        let writer = JSONLinesWriter(fileDescriptor: ends[1], closesDescriptor: true)
        #expect(throws: JSONLinesWriterError.writeFailed(errno: EPIPE)) { try writer.write(1) }
    }

    @Test func concurrentWritersNeverInterleaveLines() async throws {
        let path = temporaryPath("concurrent")
        defer { unlink(path) }
        let writer = try JSONLinesWriter(creatingFileAt: path)
        let tasks = 8
        let perTask = 300
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let padding = String(repeating: "x", count: (task * 37 + index) % 200)
                        try writer.write(["task": .int(task), "index": .int(index), "padding": .string(padding)])
                    }
                }
            }
            try await group.waitForAll()
        }
        writer.close()
        let values = try JSONValue.parseLines(try readFile(path))
        #expect(values.count == tasks * perTask)
        var nextIndex = [Int](repeating: 0, count: tasks)
        for value in values {
            let task = try #require(value["task"]?.intValue)
            let index = try #require(value["index"]?.intValue)
            #expect(index == nextIndex[task], "each task's lines appear in its order")
            nextIndex[task] = index + 1
        }
        #expect(nextIndex == [Int](repeating: perTask, count: tasks))
    }

    // MARK: Helpers

    private func temporaryPath(_ name: String) -> String {
        "/tmp/playctl-cli-tests-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max)).jsonl"
    }

    private func readFile(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0, "cannot open \(path)")
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            try #require(count >= 0)
            if count == 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
