/// The one error type of the media layers: which file or URL, what we were doing, what went wrong, and the
/// underlying library's own words (FFmpeg's `av_strerror`, for errors that come from FFmpeg).
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
        /// The URL's host name does not resolve.
        case hostNotFound
        /// Nothing accepts connections at the URL's host and port.
        case connectionRefused
        /// The TLS handshake or the server's certificate failed.
        case tlsFailure
        /// The server answered with an HTTP error status (`code` is the status: 404, 500, ...).
        case httpStatus
        /// The connection could not be made, or stalled, for longer than its timeout.
        case timedOut
        /// The connection broke before the bytes asked for arrived, and could not be resumed.
        case connectionLost
        /// The resource changed on the server (another ETag or Last-Modified) while it was being read.
        case contentChanged
        /// The server sends only whole files, and this read needed a byte range (a seek, or the end of the file).
        case rangeNotSupported
        /// The work was cancelled by whoever asked for it (the last waiter of a shared request left).
        case cancelled
        /// The media is encrypted (MP4 common encryption) and no key was given to decrypt it.
        case encrypted
        /// A playlist or manifest (HLS, DASH) that cannot be read: not one, or a required tag or attribute missing
        /// or malformed (`reason` names the line or element).
        case malformedManifest
        /// A manifest names what the engine will not fetch: a URI of another scheme than http(s) from a remote
        /// manifest (`file:`, `concat:`, ...), or a content protection it does not implement (SAMPLE-AES, FairPlay,
        /// Widevine: `reason` names it).
        case refusedByPolicy
        case other
    }

    /// The step that failed.
    public enum Operation: String, Sendable, Equatable {
        case open, probe, openDecoder, read, decode, seek, convert, encode, write, connect
    }

    public var kind: Kind
    /// The path or URL given by the caller.
    public var url: String
    public var operation: Operation
    /// The underlying library's error code (FFmpeg's are negative), or 0 when the failure was detected without one.
    public var code: Int32
    /// The underlying library's message for `code` (FFmpeg's `av_strerror`), or our own explanation.
    public var reason: String

    public init(_ kind: Kind, url: String, operation: Operation, code: Int32 = 0, reason: String) {
        self.kind = kind
        self.url = url
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    /// One line for people: `<url>: <what> (<operation>: <FFmpeg's reason>)`.
    public var description: String {
        "\(url): \(kind.summary) (\(operation.rawValue): \(reason))"
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
        case .hostNotFound: return "host not found"
        case .connectionRefused: return "connection refused"
        case .tlsFailure: return "TLS failure"
        case .httpStatus: return "HTTP error"
        case .timedOut: return "timed out"
        case .connectionLost: return "connection lost"
        case .contentChanged: return "content changed on the server while reading"
        case .rangeNotSupported: return "the server does not serve byte ranges"
        case .cancelled: return "cancelled"
        case .encrypted: return "encrypted (common encryption): it needs a decryption key"
        case .malformedManifest: return "not a valid playlist or manifest"
        case .refusedByPolicy: return "refused by the engine's policy"
        case .other: return "media error"
        }
    }
}
