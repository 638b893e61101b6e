import CFFmpeg

/// The one error type of the media layer: which file, what we were doing, what went wrong, and FFmpeg's own words.
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; each bad-input case a media engine meets has its own.
    public enum Kind: String, Sendable, Equatable {
        case fileNotFound
        case permissionDenied
        case isDirectory
        case emptyFile
        case notMedia
        case truncated
        case noDecodableStream
        case unsupportedCodec
        case decodeFailed
        case seekFailed
        case readFailed
        case invalidArgument
        case other
    }

    /// The step that failed.
    public enum Operation: String, Sendable, Equatable {
        case open, probe, openDecoder, read, decode, seek, convert, encode, write
    }

    public var kind: Kind
    /// The path or URL given by the caller.
    public var url: String
    public var operation: Operation
    /// FFmpeg's error code (negative), or 0 when the failure was detected without FFmpeg.
    public var code: Int32
    /// FFmpeg's message for `code` (av_strerror), or our own explanation when there is no code.
    public var reason: String

    public init(_ kind: Kind, url: String, operation: Operation, code: Int32 = 0, reason: String) {
        self.kind = kind
        self.url = url
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    /// An error for an FFmpeg return code, with FFmpeg's message.
    public init(_ kind: Kind, url: String, operation: Operation, ffmpegCode: Int32) {
        self.init(kind, url: url, operation: operation, code: ffmpegCode, reason: Self.ffmpegMessage(ffmpegCode))
    }

    /// One line for people: `<url>: <what> (<operation>: <FFmpeg's reason>)`.
    public var description: String {
        "\(url): \(kind.summary) (\(operation.rawValue): \(reason))"
    }

    /// FFmpeg's message for an error code (what `av_err2str` gives).
    public static func ffmpegMessage(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension MediaError.Kind {
    /// A short human summary of the kind.
    public var summary: String {
        switch self {
        case .fileNotFound: return "no such file"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "is a directory, not a media file"
        case .emptyFile: return "file is empty"
        case .notMedia: return "not a media file FFmpeg recognises"
        case .truncated: return "file is truncated or damaged"
        case .noDecodableStream: return "no decodable audio or video stream"
        case .unsupportedCodec: return "unsupported codec"
        case .decodeFailed: return "decoding failed"
        case .seekFailed: return "seek failed"
        case .readFailed: return "read failed"
        case .invalidArgument: return "invalid argument"
        case .other: return "media error"
        }
    }
}
