import PlaybackTesting
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading what `playctl feed` is given, with errors that name the file: whether a path is a folder, and a file's
/// text as JSON (PlaybackTesting's strict RFC 8259 reader: it says where a text goes wrong, and keeps integers,
/// other numbers and booleans apart).
enum FeedInputFile {
    /// The largest manifest or script read (a feed of a million entries is far below it).
    static let byteLimit = 64 << 20

    /// Whether `path` is a folder (false for any other file).
    /// - Throws: `.unreadable` when nothing can be found there.
    static func isDirectory(_ path: String) throws(FeedInputError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadable(file: path, reason: CommandFailure.systemMessage(errno))
        }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// The file at `path`, parsed as one JSON text.
    /// - Throws: `.unreadable` when it cannot be read (a folder included), `.notJSON` with the line and column
    ///   where parsing stopped.
    static func json(_ path: String) throws(FeedInputError) -> JSONValue {
        let text = String(decoding: try bytes(path), as: UTF8.self)
        do {
            return try JSONValue(parsing: text)
        } catch {
            var (line, column) = (1, 1)
            for byte in text.utf8.prefix(error.offset) {
                (line, column) = byte == UInt8(ascii: "\n") ? (line + 1, 1) : (line, column + 1)
            }
            throw .notJSON(file: path, reason: error.reason, line: line, column: column)
        }
    }

    /// Every byte of the file at `path`.
    static func bytes(_ path: String) throws(FeedInputError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(file: path, reason: CommandFailure.systemMessage(errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(file: path, reason: CommandFailure.systemMessage(errno))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= byteLimit else {
                throw .unreadable(file: path, reason: "larger than \(byteLimit >> 20) MB")
            }
        }
    }
}
