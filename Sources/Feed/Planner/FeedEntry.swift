/// One entry of a feed: a video or an image, by URL, with what is known of it before loading.
public struct FeedEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case video, image
    }

    public var url: String
    public var kind: Kind
    /// The resource's length in bytes, when the feed says.
    public var byteSize: Int64?
    /// The video's duration in seconds, when the feed says.
    public var duration: Double?

    public init(url: String, kind: Kind, byteSize: Int64? = nil, duration: Double? = nil) {
        self.url = url
        self.kind = kind
        self.byteSize = byteSize
        self.duration = duration
    }
}

/// What the link is like, as the platform reports it: prefetching spends less on cellular and nothing when the
/// user asked to save data.
public enum NetworkProfile: String, Sendable, Hashable, Codable, CaseIterable {
    case unconstrained, cellular, constrained
}
