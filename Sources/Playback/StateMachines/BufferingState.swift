/// The three buffer flags of `AVPlayerItem` (`isPlaybackLikelyToKeepUp`, `isPlaybackBufferEmpty`,
/// `isPlaybackBufferFull`), computed from how much decoded-ready media lies ahead of the playhead.
///
/// A value: ``updated(bufferedAhead:preferredForwardBufferDuration:reachedEndOfFile:queueIsFull:)`` maps the
/// previous flags and a measurement to the next flags (the previous flags give the hysteresis).
///
/// ## Rules
/// Let *target* be the forward buffer target: `preferredForwardBufferDuration` if positive, else
/// ``automaticForwardBufferDuration`` (2 s). Let *start* = min(target, ``maximumStartThreshold``) (0.5 s)
/// and *keep* = start / 4 (0.125 s by default). Every flag changes only when the media buffered ahead (in seconds;
/// for media fed over a link, what its bytes held so far cover) crosses a threshold, with a gap between the way in
/// and the way out, so that a buffer the playhead eats and the demuxer or the link refills in bursts does not make a
/// flag flicker; never because a queue of decoded frames filled or drained by a frame.
/// - **Empty**: nothing is buffered ahead and the demuxer has not reached the end of the file; once measured empty,
///   it stays so until *keep* is buffered (or the end of the file is reached).
/// - **Full**: the packet queues are full, or at least *target* is buffered (reading then pauses); once full, it
///   stays so until less than *target* - *start* / 2 is buffered (1.75 s by default).
/// - **Likely to keep up**: true when the end of the file was reached (everything left is buffered) or the buffer
///   is full; otherwise it becomes true once at least *start* is buffered, and, once true, stays true until less
///   than *keep* is buffered, or playback ran out (``stalled()``).
/// - **Prediction** (media fed over a link, ``updated(bufferedAhead:preferredForwardBufferDuration:reachedEndOfFile:queueIsFull:predictedShortfall:decodersReady:)``):
///   once the buffer has been likely to keep up, a likely buffer stops being so when the download is predicted to
///   fall short of the playhead before the end by more than *keep* at the measured rate, and a buffer that is not
///   likely becomes so only when no shortfall is predicted at all. The first start uses the thresholds alone, so
///   playback starts fast; after that a link slower than the media makes the flag false before playback runs dry,
///   and after a stall it comes back only when enough is buffered for the rest to arrive in time (the engine passes
///   no shortfall until the item first plays: a rate measured while paused says little).
/// - **Decoders**: a buffer that is not likely to keep up becomes so only while the decoders are ahead too (the
///   engine says when: their queue full or at its end, or before the first start their frames covering the start
///   threshold): playback does not start, or resume, on bytes alone. Once likely, the decoders' queue does not
///   matter: a decoder that falls behind the clock is a stall, which ``stalled()`` reports.
///
/// A duration that is not numeric counts as nothing buffered, except `+infinity`, which counts as
/// everything buffered; negative durations count as nothing.
public struct BufferingState: Sendable, Hashable {
    /// The forward buffer target, in seconds, when `preferredForwardBufferDuration` is 0 (automatic).
    public static let automaticForwardBufferDuration: Double = 2
    /// The most that must be buffered, in seconds, before a not-likely buffer becomes likely to keep up.
    public static let maximumStartThreshold: Double = 0.5

    /// Whether playback is likely to keep up (see the rules above).
    public private(set) var isPlaybackLikelyToKeepUp: Bool
    /// Whether nothing is buffered ahead of the playhead while more media is expected.
    public private(set) var isPlaybackBufferEmpty: Bool
    /// Whether the buffer holds all it may hold, so reading is suspended.
    public private(set) var isPlaybackBufferFull: Bool
    /// Whether the buffer has been likely to keep up since the item became current (the prediction applies after).
    public private(set) var hasBeenLikelyToKeepUp = false
    /// Whether the last measurement found the buffer empty (a new item's buffer is empty before any measurement,
    /// which does not hold it empty until *keep* is buffered).
    private var measuredEmpty = false

    /// The state of a new item before any measurement: empty, not full, not likely to keep up.
    public init() {
        isPlaybackLikelyToKeepUp = false
        isPlaybackBufferEmpty = true
        isPlaybackBufferFull = false
    }

    /// The forward buffer target in seconds for a `preferredForwardBufferDuration` (0 or less, or not
    /// finite, means automatic).
    public static func forwardBufferTarget(preferredForwardBufferDuration: Double) -> Double {
        preferredForwardBufferDuration.isFinite && preferredForwardBufferDuration > 0
            ? preferredForwardBufferDuration : automaticForwardBufferDuration
    }

    /// Seconds that must be buffered for a not-likely buffer to become likely to keep up.
    public static func startThreshold(preferredForwardBufferDuration: Double) -> Double {
        min(forwardBufferTarget(preferredForwardBufferDuration: preferredForwardBufferDuration), maximumStartThreshold)
    }

    /// Seconds below which a likely buffer stops being likely to keep up.
    public static func keepThreshold(preferredForwardBufferDuration: Double) -> Double {
        startThreshold(preferredForwardBufferDuration: preferredForwardBufferDuration) / 4
    }

    /// The flags after measuring the buffer.
    /// - Parameters:
    ///   - bufferedAhead: media ready ahead of the playhead (decoded or demuxed and queued).
    ///   - preferredForwardBufferDuration: like `AVPlayerItem.preferredForwardBufferDuration`; 0 = automatic.
    ///   - reachedEndOfFile: whether the demuxer has read the last packet of the item.
    ///   - queueIsFull: whether the packet or frame queues refuse more input.
    public func updated(
        bufferedAhead: MediaTime, preferredForwardBufferDuration: Double,
        reachedEndOfFile: Bool, queueIsFull: Bool
    ) -> BufferingState {
        let ahead = Self.seconds(bufferedAhead)
        let target = Self.forwardBufferTarget(preferredForwardBufferDuration: preferredForwardBufferDuration)
        let start = Self.startThreshold(preferredForwardBufferDuration: preferredForwardBufferDuration)
        let keep = Self.keepThreshold(preferredForwardBufferDuration: preferredForwardBufferDuration)

        var next = self
        next.isPlaybackBufferEmpty = !reachedEndOfFile && (measuredEmpty ? ahead < keep : ahead <= 0)
        next.measuredEmpty = next.isPlaybackBufferEmpty
        next.isPlaybackBufferFull = queueIsFull || ahead >= (isPlaybackBufferFull ? target - start / 2 : target)
        next.isPlaybackLikelyToKeepUp =
            reachedEndOfFile || next.isPlaybackBufferFull
            || ahead >= (isPlaybackLikelyToKeepUp ? keep : start)
        next.hasBeenLikelyToKeepUp = hasBeenLikelyToKeepUp || next.isPlaybackLikelyToKeepUp
        return next
    }

    /// Playback ran out of media (a stall): the buffer is not likely to keep up, whatever it held, until it is again
    /// by the rules for a buffer that is not (*start* buffered, the decoders ahead, no shortfall predicted).
    public mutating func stalled() {
        isPlaybackLikelyToKeepUp = false
    }

    /// The flags after measuring a buffer fed over a link, as ``updated(bufferedAhead:preferredForwardBufferDuration:reachedEndOfFile:queueIsFull:)``
    /// with the prediction rule, and the decoders' readiness.
    /// - Parameters:
    ///   - predictedShortfall: seconds by which the download is predicted to miss the playhead before the end at the
    ///     measured rate (0 when it keeps up or nothing was measured yet).
    ///   - decodersReady: whether the decoders are ahead of the playhead (a full queue of decoded frames); while
    ///     not, a buffer that is not likely to keep up does not become so, whatever the bytes say (one that is
    ///     stays so: a decoder behind the clock is a stall).
    public func updated(
        bufferedAhead: MediaTime, preferredForwardBufferDuration: Double,
        reachedEndOfFile: Bool, queueIsFull: Bool, predictedShortfall: Double, decodersReady: Bool = true
    ) -> BufferingState {
        var next = updated(
            bufferedAhead: bufferedAhead, preferredForwardBufferDuration: preferredForwardBufferDuration,
            reachedEndOfFile: reachedEndOfFile, queueIsFull: queueIsFull)
        let keep = Self.keepThreshold(preferredForwardBufferDuration: preferredForwardBufferDuration)
        if !reachedEndOfFile, hasBeenLikelyToKeepUp, predictedShortfall > (isPlaybackLikelyToKeepUp ? keep : 0) {
            next.isPlaybackLikelyToKeepUp = false
        }
        if !decodersReady && !isPlaybackLikelyToKeepUp { next.isPlaybackLikelyToKeepUp = false }
        next.hasBeenLikelyToKeepUp = hasBeenLikelyToKeepUp || next.isPlaybackLikelyToKeepUp
        return next
    }

    private static func seconds(_ time: MediaTime) -> Double {
        switch time.kind {
        case .numeric: return max(time.seconds, 0)
        case .positiveInfinity: return .infinity
        case .negativeInfinity, .invalid, .indefinite: return 0
        }
    }
}
