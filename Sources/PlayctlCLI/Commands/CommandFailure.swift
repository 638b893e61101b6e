import MediaIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a command failed after its command line was accepted (a mistake in a value is a `UsageError` from the
/// command's `init` instead).
///
/// `PlayctlMain` prints `message` as the single line `playctl: error: <message>` and exits 1.
package enum CommandFailure: Error, CustomStringConvertible {
    /// The media layer failed; its description names the file and gives FFmpeg's reason.
    case media(MediaError)
    /// A system call on `path` failed with `errno` while doing `operation` (`write`, `open`).
    case system(operation: String, path: String, errno: Int32)
    /// Any other failure, already worded for the user.
    case other(String)

    /// A failure with a message worded for the user.
    package init(_ message: String) {
        self = .other(message)
    }

    /// The text after `playctl: error: `, always one line.
    package var message: String {
        let text: String
        switch self {
        case .media(let error): text = error.description
        case .system(let operation, let path, let code):
            text = "cannot \(operation) '\(path)': \(Self.systemMessage(code))"
        case .other(let message): text = message
        }
        return Self.oneLine(text)
    }

    package var description: String { message }

    /// `strerror`'s text for an error number.
    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `text` with line breaks and other control characters replaced by spaces, so a diagnostic stays one line.
    static func oneLine(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let isControl =
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            result.unicodeScalars.append(isControl ? " " : scalar)
        }
        return result
    }
}

/// Runs a media-layer call, turning its `MediaError` into a `CommandFailure`.
func media<T>(_ body: () throws(MediaError) -> T) throws(CommandFailure) -> T {
    do {
        return try body()
    } catch {
        throw .media(error)
    }
}
