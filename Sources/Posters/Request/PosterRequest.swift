import Foundation
import Loading
import MediaCore

/// What a poster is: a picture of a video (its frame on screen at a time, its first by default) or an image,
/// from a file or an http(s) URL, scaled to a size with a fit, in a 32-bit pixel format.
public struct PosterRequest: Sendable, Hashable {
    /// How a picture is fitted into the requested size, its aspect ratio kept.
    public enum Fit: String, Sendable, Hashable, CaseIterable {
        /// The whole picture, inside the size: one side may come out shorter.
        case fit
        /// The size covered, the picture centred and cropped to it.
        case fill
    }

    /// The pixel formats a poster comes in (4 bytes a pixel).
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case rgba, bgra

        var pixelFormat: PixelFormat { self == .rgba ? .rgba : .bgra }
    }

    /// Visible requests go before prefetch ones.
    public enum Priority: Int, Sendable, Hashable, Comparable {
        case prefetch = 0
        case visible = 1

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A path or an http(s) URL.
    public var source: String
    /// For a video: the time of the frame (nil: the first frame). Images ignore it.
    public var time: Double?
    /// For a video at `time`: the frame on screen then (true), or the keyframe at or before it (false).
    public var exact: Bool
    /// The size to fit into, in pixels; nil keeps the picture's own size.
    public var width: Int?
    public var height: Int?
    public var fit: Fit
    public var format: Format
    public var priority: Priority
    /// The priority of its fetch on a shared link; nil: playback's for a visible request, prefetching's (held while
    /// a player claims the link) for the others. A feed fetches an entry's own small picture (a server's thumbnail)
    /// at playback's: a few kilobytes a swipe will show, which the item on screen's claim would otherwise hold back.
    public var transferPriority: TransferPriority?
    /// HTTP headers its fetch sends beside the loader's (a signed feed entry's `Authorization`); not part of its key.
    public var headers: [String: String]

    public init(
        source: String, time: Double? = nil, exact: Bool = true, width: Int? = nil, height: Int? = nil,
        fit: Fit = .fit, format: Format = .rgba, priority: Priority = .visible,
        transferPriority: TransferPriority? = nil, headers: [String: String] = [:]
    ) {
        self.source = source
        self.time = time
        self.exact = exact
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.priority = priority
        self.transferPriority = transferPriority
        self.headers = headers
    }

    /// What identifies the picture this asks for: requests with the same key share one fetch and one decode.
    public var key: PosterKey { PosterKey(self) }
}

/// A request's identity: its source, normalized (scheme and host in lower case, a default port and a fragment
/// dropped, a path made absolute and standardized), and its variant (time, exactness, size, fit, format).
public struct PosterKey: Sendable, Hashable, CustomStringConvertible {
    public let source: String
    public let variant: String

    /// The key of a seek-bar thumbnail of `source` (``ThumbnailGenerator``'s entries in a poster cache).
    init(thumbnailOf source: String, variant: String) {
        self.source = Self.normalize(source)
        self.variant = "thumbnail " + variant
    }

    init(_ request: PosterRequest) {
        source = Self.normalize(request.source)
        let time = request.time.map { "\($0)\(request.exact ? "" : "k")" } ?? "first"
        let size = "\(request.width.map(String.init) ?? "-")x\(request.height.map(String.init) ?? "-")"
        variant = "\(time) \(size) \(request.fit.rawValue) \(request.format.rawValue)"
    }

    public var description: String { "\(source) [\(variant)]" }

    /// `source` in its normal form.
    public static func normalize(_ source: String) -> String {
        let lower = source.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), var parts = URLComponents(string: source)
        else {
            return URL(fileURLWithPath: source).standardizedFileURL.path
        }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if (parts.scheme == "http" && parts.port == 80) || (parts.scheme == "https" && parts.port == 443) {
            parts.port = nil
        }
        parts.fragment = nil
        if parts.path.isEmpty { parts.path = "/" }
        return parts.string ?? source
    }
}
