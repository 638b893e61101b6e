/// What the first request asks about the resource, as AVFoundation's
/// `AVAssetResourceLoadingContentInformationRequest`: the delegate sets these before `finishLoading()`.
open class AVAssetResourceLoadingContentInformationRequest: NSObject, @unchecked Sendable {
    private struct Fields {
        var contentType: String?
        var contentLength: Int64 = 0
        var isByteRangeAccessSupported = false
        var renewalDate: Date?
        var isEntireLengthAvailableOnDemand = false
    }

    private let channel: ResourceLoadingChannel
    /// Guarded by `channel` (the delegate sets them from any thread).
    private var fields = Fields()

    init(channel: ResourceLoadingChannel) {
        self.channel = channel
        super.init()
    }

    private subscript<Value>(_ field: WritableKeyPath<Fields, Value>) -> Value {
        get { channel.withLock { fields[keyPath: field] } }
        set { channel.withLock { fields[keyPath: field] = newValue } }
    }

    /// The type of the resource (a uniform type identifier such as `public.mpeg-4`, or a MIME type): kept; the
    /// engine recognises the format from the bytes.
    public var contentType: String? {
        get { self[\.contentType] }
        set { self[\.contentType] = newValue }
    }

    /// The resource's length in bytes (required: a request finished without a positive length fails).
    public var contentLength: Int64 {
        get { self[\.contentLength] }
        set { self[\.contentLength] = newValue }
    }

    /// Whether the delegate answers data requests at any offset (kept: the engine's requests always carry an offset;
    /// a delegate that cannot serve one should fail it).
    public var isByteRangeAccessSupported: Bool {
        get { self[\.isByteRangeAccessSupported] }
        set { self[\.isByteRangeAccessSupported] = newValue }
    }

    /// The content types the engine accepts: nil (any).
    public var allowedContentTypes: [String]? { nil }

    /// Kept (no renewals are requested).
    public var renewalDate: Date? {
        get { self[\.renewalDate] }
        set { self[\.renewalDate] = newValue }
    }

    /// Kept.
    public var isEntireLengthAvailableOnDemand: Bool {
        get { self[\.isEntireLengthAvailableOnDemand] }
        set { self[\.isEntireLengthAvailableOnDemand] = newValue }
    }

    /// What was set (the caller holds the channel's lock).
    var informationLocked: AVAssetResourceLoader.ContentInformation {
        .init(
            contentLength: fields.contentLength, contentType: fields.contentType,
            isByteRangeAccessSupported: fields.isByteRangeAccessSupported)
    }
}
