import Foundation
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading what `playctl feed` is given, with errors that name the file: whether a path is a folder, and a file's
/// text as JSON (Foundation's reader; integers, other numbers and booleans kept apart).
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

    /// The file at `path`, parsed as one JSON text by Foundation's `JSONSerialization`.
    /// - Throws: `.unreadable` when it cannot be read (a folder included), `.notJSON` with Foundation's reason and
    ///   the line and column of the character it names.
    static func json(_ path: String) throws(FeedInputError) -> JSONValue {
        try json(bytes: bytes(path), file: path)
    }

    /// `bytes` (read from `path`, a file or a URL), parsed as `json(_:)` parses a file.
    static func json(bytes: [UInt8], file path: String) throws(FeedInputError) -> JSONValue {
        do {
            let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return JSONValue(foundation: object)
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            // "Invalid value around character 15.": the character's place as a line and a column.
            let offset = detail.split(separator: " ").last.flatMap {
                Int($0.trimmingCharacters(in: .punctuationCharacters))
            }
            var (line, column) = (1, 1)
            for byte in bytes.prefix(offset ?? 0) {
                (line, column) = byte == UInt8(ascii: "\n") ? (line + 1, 1) : (line, column + 1)
            }
            let reason = detail.components(separatedBy: " around character").first ?? detail
            throw .notJSON(file: path, reason: reason, line: line, column: column)
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
