import Loading
import Streaming

/// One entry of a feed: a video or an image, by URL, with what is known of it before loading.
public struct FeedEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case video, image
    }

    /// Where it is; with ``renditions``, what names the entry (the first rendition's URL unless given), played
    /// only when no rendition is chosen.
    public var url: String
    public var kind: Kind
    /// The resource's length in bytes, when the feed says.
    public var byteSize: Int64?
    /// The video's duration in seconds, when the feed says.
    public var duration: Double?
    /// Progressive copies of the video at several bit rates (empty: ``url`` alone). The feed plays one of them,
    /// chosen from the bandwidth estimate before the item's first byte is fetched, and keeps that choice for the
    /// item (its prefetch, its player and its poster read the same file).
    public var renditions: [ProgressiveRendition]
    /// HTTP header fields sent with every request for the entry (its prefetch and its player's reads; a poster
    /// sends the feed's), beside the feed's loading's own (`RemoteLoading.headers`): signed or private media. Never
    /// logged, nor in an event; not encoded (an entry written out carries no credential).
    public var headers: [String: String]
    /// A picture that stands for the video until its first frame shows (a server's thumbnail: a JPEG, PNG or WebP
    /// image, a path or an http(s) URL), made into the feed's poster instead of the video's first keyframe: a few
    /// kilobytes where the keyframe costs the video's header and first pictures (hundreds of kilobytes of a weak
    /// link). Nil: the poster is the video's first frame.
    public var poster: String?

    public init(
        url: String, kind: Kind, byteSize: Int64? = nil, duration: Double? = nil,
        renditions: [ProgressiveRendition] = [], headers: [String: String] = [:], poster: String? = nil
    ) {
        self.url = url
        self.kind = kind
        self.byteSize = byteSize
        self.duration = duration
        self.renditions = renditions
        self.headers = headers
        self.poster = poster
    }

    /// A video given as `renditions` (not empty), named by the first one's URL.
    public init(renditions: [ProgressiveRendition], kind: Kind = .video, duration: Double? = nil) {
        self.init(url: renditions.first?.url ?? "", kind: kind, duration: duration, renditions: renditions)
    }

    /// What playing the entry fetches, as far as the entry tells (for the feed's autoload cap,
    /// ``PrefetchPolicy/autoloadByteCap``): its ``byteSize``; else, with renditions, the least of theirs (a
    /// rendition's `byteSize`, or its bit rate by ``duration``): the feed can always play the lowest; else nil
    /// (unknown).
    public var expectedByteSize: Int64? {
        if let byteSize { return byteSize }
        let sizes = renditions.compactMap { rendition -> Int64? in
            if let size = rendition.byteSize { return size }
            guard let duration, duration > 0, duration.isFinite, rendition.bitrate > 0 else { return nil }
            return Int64((Double(rendition.bitrate) * duration / 8).rounded(.up))
        }
        return sizes.min()
    }

    /// Where the feed learns the size of a video whose entry tells none (``expectedByteSize`` nil), when a byte cap
    /// applies (``PrefetchPolicy/autoloadByteCap``): the URL of its smallest rendition (the least bit rate: what the
    /// feed can always play), else its own; nil for what a `HEAD` cannot size (a local file, an HLS or DASH
    /// manifest, an image).
    public var sizeProbeURL: String? {
        guard kind == .video else { return nil }
        let url = renditions.min { $0.bitrate < $1.bitrate }?.url ?? url
        guard RemoteLoading.isRemote(url), !ManifestURI.isManifest(url) else { return nil }
        return url
    }

    private enum CodingKeys: String, CodingKey {
        case url, kind, byteSize, duration, renditions, headers, poster
    }

    /// Encodes an entry without its ``headers``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(byteSize, forKey: .byteSize)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encode(renditions, forKey: .renditions)
        try container.encodeIfPresent(poster, forKey: .poster)
    }

    /// Decodes an entry; `renditions`, `headers` and `poster` may be absent (none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(String.self, forKey: .url), kind: try container.decode(Kind.self, forKey: .kind),
            byteSize: try container.decodeIfPresent(Int64.self, forKey: .byteSize),
            duration: try container.decodeIfPresent(Double.self, forKey: .duration),
            renditions: try container.decodeIfPresent([ProgressiveRendition].self, forKey: .renditions) ?? [],
            headers: try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:],
            poster: try container.decodeIfPresent(String.self, forKey: .poster))
    }
}

/// What the link is like, as the platform reports it: prefetching spends less on cellular and nothing when the
/// user asked to save data.
public enum NetworkProfile: String, Sendable, Hashable, Codable, CaseIterable {
    case unconstrained, cellular, constrained
}
