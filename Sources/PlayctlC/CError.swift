import CPlayctl
import Foundation
import Playback

/// The C API's error codes: from `MediaError`, and their static strings.
enum CError {
    static func code(of error: MediaError) -> Int32 { code(of: error.kind).rawValue }

    static func code(of kind: MediaError.Kind) -> playctl_error {
        switch kind {
        case .fileNotFound: return PLAYCTL_ERROR_NOT_FOUND
        case .permissionDenied: return PLAYCTL_ERROR_PERMISSION
        case .isDirectory, .emptyFile, .notMedia, .malformedManifest: return PLAYCTL_ERROR_NOT_MEDIA
        case .noDecodableStream, .unsupportedCodec, .encrypted, .refusedByPolicy: return PLAYCTL_ERROR_UNSUPPORTED
        case .truncated, .decodeFailed, .seekFailed, .readFailed: return PLAYCTL_ERROR_DECODE
        case .hostNotFound, .connectionRefused, .tlsFailure, .httpStatus, .timedOut, .connectionLost,
            .contentChanged, .rangeNotSupported:
            return PLAYCTL_ERROR_NETWORK
        case .invalidArgument: return PLAYCTL_ERROR_INVALID_ARGUMENT
        case .cancelled, .other: return PLAYCTL_ERROR_OTHER
        }
    }

    /// The code for an error known only by its description (`<url>: <what> (<operation>: <reason>)`).
    static func code(ofDescription description: String) -> Int32 {
        for kind in kinds where description.contains(": \(kind.summary) (") { return code(of: kind).rawValue }
        return PLAYCTL_ERROR_OTHER.rawValue
    }

    private static let kinds: [MediaError.Kind] = [
        .fileNotFound, .permissionDenied, .isDirectory, .emptyFile, .notMedia, .truncated, .noDecodableStream,
        .unsupportedCodec, .decodeFailed, .seekFailed, .readFailed, .invalidArgument, .hostNotFound,
        .connectionRefused, .tlsFailure, .httpStatus, .timedOut, .connectionLost, .contentChanged,
        .rangeNotSupported, .cancelled, .encrypted, .malformedManifest, .refusedByPolicy,
    ]

    /// A local path that cannot be played, checked before loading: the error and its message, or nil.
    static func check(localPath url: String) -> (playctl_error, String)? {
        if url.contains("://") && !url.hasPrefix("file://") { return nil }
        let path = url.hasPrefix("file://") ? String(url.dropFirst("file://".count)) : url
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            let code = errno == EACCES ? PLAYCTL_ERROR_PERMISSION : PLAYCTL_ERROR_NOT_FOUND
            return (code, "\(url): \(reason)")
        }
        if info.st_mode & S_IFMT == S_IFDIR { return (PLAYCTL_ERROR_NOT_MEDIA, "\(url): is a directory") }
        if access(path, R_OK) != 0 { return (PLAYCTL_ERROR_PERMISSION, "\(url): permission denied") }
        return nil
    }

    /// Static C strings, made once.
    nonisolated(unsafe) static let strings: [Int32: UnsafePointer<CChar>] = {
        let texts: [(playctl_error, String)] = [
            (PLAYCTL_OK, "success"),
            (PLAYCTL_ERROR_INVALID_ARGUMENT, "invalid argument"),
            (PLAYCTL_ERROR_NOT_FOUND, "no such file"),
            (PLAYCTL_ERROR_PERMISSION, "permission denied"),
            (PLAYCTL_ERROR_NOT_MEDIA, "not a media file"),
            (PLAYCTL_ERROR_UNSUPPORTED, "unsupported media"),
            (PLAYCTL_ERROR_DECODE, "damaged media: decoding failed"),
            (PLAYCTL_ERROR_NETWORK, "network error"),
            (PLAYCTL_ERROR_INVALID_STATE, "not possible in the player's state"),
            (PLAYCTL_ERROR_NO_FRAME, "no frame on screen yet"),
            (PLAYCTL_ERROR_AUDIO_DEVICE, "audio device failed"),
            (PLAYCTL_ERROR_PIP, "picture in picture failed"),
            (PLAYCTL_ERROR_OTHER, "error"),
            (PLAYCTL_ERROR_CANCELLED, "cancelled"),
        ]
        var strings: [Int32: UnsafePointer<CChar>] = [:]
        for (code, text) in texts { strings[code.rawValue] = UnsafePointer(strdup(text)!) }
        return strings
    }()

    nonisolated(unsafe) static let unknown = UnsafePointer(strdup("unknown error")!)
}
