import MediaCore
import Playback
import Streaming

/// An item's access log, as `AVPlayerItemAccessLog`: one event per playback session of the item (each time a
/// player made it its current item), written from the session's summary metric (when the item ends, fails or
/// leaves its player, or the player is invalidated), oldest first.
public final class AVPlayerItemAccessLog: NSObject, @unchecked Sendable {
    /// The events, oldest first (at most ``ItemLogs/limit``).
    public let events: [AVPlayerItemAccessLogEvent]

    init(events: [AVPlayerItemAccessLogEvent]) {
        self.events = events
        super.init()
    }

    /// The log as text in the W3C extended log format Apple uses (`#Version`, `#Fields`, one line per event).
    public func extendedLogData() -> Data? {
        var lines = [
            "#Version: 1.0", "#Software: playctl",
            "#Fields: date time s-ip cs-uri sc-count c-duration-watched"
                + " c-stalls c-startup-time sc-bytes c-observed-bitrate c-frames-dropped",
        ]
        let formatter = ISO8601DateFormatter()
        for event in events {
            let parts = formatter.string(from: event.playbackStartDate ?? Date(timeIntervalSince1970: 0))
                .split(separator: "T")
            lines.append(
                "\(parts.first ?? "-") \(parts.last ?? "-") - \(event.uri ?? "-") \(event.numberOfMediaRequests)"
                    + " \(event.durationWatched) \(event.numberOfStalls) \(event.startupTime)"
                    + " \(event.numberOfBytesTransferred) \(event.observedBitrate) \(event.numberOfDroppedVideoFrames)")
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// The encoding of ``extendedLogData()``: UTF-8.
    public var extendedLogDataStringEncoding: String.Encoding { .utf8 }
}

/// One session of an access log, as `AVPlayerItemAccessLogEvent`. Values Apple reports as negative when unknown
/// are negative here too (the engine plays one rendition: no indicated or switch bit rates).
public final class AVPlayerItemAccessLogEvent: NSObject, @unchecked Sendable {
    /// The item's URL.
    public let uri: String?
    /// When the session's summary was taken (the latest one of the session).
    public let playbackStartDate: Date?
    /// The engine's session identifier.
    public let playbackSessionID: String?
    /// The item time at the summary, in seconds.
    public let playbackStartOffset: TimeInterval
    /// Seconds spent playing.
    public let durationWatched: TimeInterval
    /// Stalls.
    public let numberOfStalls: Int
    /// Seconds waiting to play before the session first played.
    public let startupTime: TimeInterval
    /// Bytes of the URL that came over the link (0 for a local file).
    public let numberOfBytesTransferred: Int64
    /// The last download rate measured, in bits per second (negative when unknown: a local file).
    public let observedBitrate: Double
    /// Frames dropped because they were late.
    public let numberOfDroppedVideoFrames: Int
    /// Seeks requested: each is a new read of the media, as a request is.
    public let numberOfMediaRequests: Int
    /// `"FILE"` for a local file, `"VOD"` for remote media.
    public let playbackType: String?
    /// The bandwidth the manifest gives the variant played last (an HLS or DASH item); negative otherwise.
    public let indicatedBitrate: Double
    /// The bandwidth estimate the last variant switch was decided with (an adaptive item that switched);
    /// negative otherwise.
    public let switchBitrate: Double
    /// Not known: nil.
    public let serverAddress: String? = nil
    /// Not tracked: 0.
    public let numberOfServerAddressChanges = 0
    /// Not tracked: 0.
    public let downloadOverdue = 0

    init(summary: PlaybackSummaryEvent, uri: String, isLocal: Bool, variants: [VariantSwitch] = []) {
        self.uri = uri
        let variant = variants.last?.to
        indicatedBitrate = variant.map { $0.bandwidth > 0 ? Double($0.bandwidth) : -1 } ?? -1
        switchBitrate = variants.count > 1 ? variants.last?.estimate ?? -1 : -1
        playbackStartDate = summary.context.date
        playbackSessionID = summary.context.sessionID
        playbackStartOffset = summary.context.mediaTime.seconds
        durationWatched = summary.playbackDuration
        numberOfStalls = summary.stallCount
        startupTime = summary.startupTime
        numberOfBytesTransferred = summary.bytesTransferred ?? 0
        observedBitrate = summary.downloadRate.map { $0 * 8 } ?? -1
        numberOfDroppedVideoFrames = summary.framesDropped
        numberOfMediaRequests = 1 + summary.seekCount
        playbackType = isLocal ? "FILE" : "VOD"
        super.init()
    }
}

/// An item's error log, as `AVPlayerItemErrorLog`: one event per failure of the item (it could not be loaded, or
/// could not play to its end), oldest first.
public final class AVPlayerItemErrorLog: NSObject, @unchecked Sendable {
    /// The events, oldest first (at most ``ItemLogs/limit``).
    public let events: [AVPlayerItemErrorLogEvent]

    init(events: [AVPlayerItemErrorLogEvent]) {
        self.events = events
        super.init()
    }

    /// The log as text: one line per event (date, status code, domain, comment).
    public func extendedLogData() -> Data? {
        let formatter = ISO8601DateFormatter()
        let lines = events.map {
            "\(formatter.string(from: $0.date ?? Date(timeIntervalSince1970: 0))) \($0.errorStatusCode)"
                + " \($0.errorDomain) \($0.errorComment ?? "-")"
        }
        return Data((["#Version: 1.0", "#Software: playctl"] + lines).joined(separator: "\n").utf8 + [10])
    }

    /// The encoding of ``extendedLogData()``: UTF-8.
    public var extendedLogDataStringEncoding: String.Encoding { .utf8 }
}

/// One failure, as `AVPlayerItemErrorLogEvent`.
public final class AVPlayerItemErrorLogEvent: NSObject, @unchecked Sendable {
    /// When it was reported.
    public let date: Date?
    /// The item's URL.
    public let uri: String?
    /// Not known: nil.
    public let serverAddress: String? = nil
    /// The engine's session identifier, when known.
    public let playbackSessionID: String?
    /// An HTTP failure's status (404, 500, ...); otherwise the failure's code (FFmpeg's, negative), or
    /// `AVError.Code.unknown`'s.
    public let errorStatusCode: Int
    /// `"playctl.MediaError"` with the failure's kind (`playctl.MediaError.httpStatus`), or `AVFoundationErrorDomain`
    /// when the kind is not known.
    public let errorDomain: String
    /// The failure's description: the URL, what went wrong, and why.
    public let errorComment: String?

    init(date: Date, uri: String, sessionID: String?, error: MediaError?, message: String) {
        self.date = date
        self.uri = uri
        playbackSessionID = sessionID
        if let error {
            errorStatusCode = error.code != 0 ? Int(error.code) : AVError.Code.unknown.rawValue
            errorDomain = "playctl.MediaError.\(error.kind.rawValue)"
        } else {
            errorStatusCode = AVError.Code.unknown.rawValue
            errorDomain = AVFoundationErrorDomain
        }
        errorComment = message
        super.init()
    }
}

/// What an item's logs hold: bounded, the oldest entries dropped first. A session's later summary replaces its
/// earlier one.
struct ItemLogs {
    /// The most events each log keeps.
    static let limit = 64

    var access: [AVPlayerItemAccessLogEvent] = []
    var errors: [AVPlayerItemErrorLogEvent] = []

    mutating func record(_ event: AVPlayerItemAccessLogEvent, limit: Int = limit) {
        if let index = access.lastIndex(where: { $0.playbackSessionID == event.playbackSessionID }) {
            access[index] = event
        } else {
            access.append(event)
        }
        if access.count > limit { access.removeFirst(access.count - limit) }
    }

    mutating func record(_ event: AVPlayerItemErrorLogEvent, limit: Int = limit) {
        errors.append(event)
        if errors.count > limit { errors.removeFirst(errors.count - limit) }
    }
}
