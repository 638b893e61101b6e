/// What the current item has shown so far, as a value: the last frame's time, the audio handed out, whether its
/// first frame and its end were reported, and the frame counts of the whole player.
///
/// It keeps times, never frames: a player holds no decoded picture of its own (the outputs hold what they show).
struct PresentationState: Sendable {
    /// The time of the frame on screen (nil before the item's first frame, and after a seek until it lands).
    var lastFrameTime: MediaTime?
    /// Where the last audio handed out starts and ends in media time (nil since the item or a seek began).
    var lastAudio: (start: MediaTime, end: MediaTime)?
    /// Clock time at which the item became current (for the first frame's latency).
    var currentSince: Double = 0
    var firstFrameShown = false
    var endReported = false
    /// Damaged packets reported so far for this item.
    var decodeErrorsReported = 0
    /// The subtitle cues shown (the current item's selected legible option), in order of their start.
    var shownCues: [TextCue] = []
    /// The subtitle pipeline whose failure was reported.
    var textFailureReported: ObjectIdentifier?
    /// The timed metadata pipeline whose failure was reported.
    var metadataFailureReported: ObjectIdentifier?
    /// The size of the pictures shown (rotation applied); nil before the item's first frame.
    var pictureSize: (width: Int, height: Int)?
    /// Frames shown, and frames dropped because they were late (host clock), since the player was made.
    var framesRendered = 0
    var framesDropped = 0
    /// Host clock: frames whose delivery to app callbacks (sinks, layer observers) was skipped because earlier ones
    /// still waited on the callback executor.
    var frameCallbacksSkipped = 0
    /// Host clock: shown time minus due time of each frame shown while playing (seconds), at most
    /// ``maximumErrorSamples`` of them (the first ones).
    var presentationErrors: [Double] = []

    /// Counts the starts of audio from a new position (a new item, a seek): audio written to a device for an
    /// earlier epoch is flushed.
    var audioEpoch: UInt64 = 0
    /// Host clock: the audio clock minus the time of the frame shown, at the last frame shown while playing
    /// (seconds; mpv's avsync), and the first ``maximumErrorSamples`` of those shown while a device played.
    var avsync: Double?
    var avsyncSamples: [Double] = []

    /// Bound of ``presentationErrors``: 8 bytes each, 512 KB in all (about 18 minutes at 60 frames per second).
    static let maximumErrorSamples = 1 << 16

    /// A new current item (or none) at clock time `now`.
    mutating func itemChanged(at now: Double) {
        lastFrameTime = nil
        lastAudio = nil
        firstFrameShown = false
        endReported = false
        decodeErrorsReported = 0
        shownCues = []
        textFailureReported = nil
        metadataFailureReported = nil
        pictureSize = nil
        currentSince = now
        audioEpoch &+= 1
    }

    /// The decoders were flushed for a seek (or to resume after a cancelled one): nothing of the old position is
    /// shown any more.
    mutating func flushed() {
        lastFrameTime = nil
        lastAudio = nil
        audioEpoch &+= 1
    }

    /// A seek landed: what is shown starts afresh, and the end may be reached again.
    mutating func landed() {
        flushed()
        endReported = false
    }

    /// Records a frame shown `error` seconds after it was due (host clock, while playing).
    mutating func recordPresentationError(_ error: Double) {
        if presentationErrors.count < Self.maximumErrorSamples { presentationErrors.append(error) }
    }

    /// Records the audio/video offset at a frame shown while playing (host clock); `sample`: kept for the
    /// statistics too (while a sound server's device plays: a player on the null device keeps no more memory).
    mutating func recordAvsync(_ offset: Double, sample: Bool) {
        avsync = offset
        if sample, avsyncSamples.count < Self.maximumErrorSamples { avsyncSamples.append(offset) }
    }
}

/// How the current item's buffer stands between reports, as a value.
struct BufferingReport: Sendable {
    /// Set by a stall: the player waits until the decoded-frame queue is full again (or at the end).
    var recoveringFromStall = false
    /// The last `isPlaybackLikelyToKeepUp` reported (nil: none since the item changed).
    var lastLikelyToKeepUp: Bool?
    /// For items fed over a link: the last buffer-empty and buffer-full flags and loaded ranges reported.
    var lastBufferEmpty: Bool?
    var lastBufferFull: Bool?
    var lastLoadedRanges: [TimeRange] = []
    /// The current item has played (time control `playing`) since it became current: the download-rate prediction
    /// applies from then on (see ``PlayerCore`` `updateRemoteBuffering`).
    var itemHasPlayed = false

    mutating func reset() {
        recoveringFromStall = false
        itemHasPlayed = false
        lastLikelyToKeepUp = nil
        lastBufferEmpty = nil
        lastBufferFull = nil
        lastLoadedRanges = []
    }

    /// Whether `ranges` differ enough from the last reported to report them: another count of ranges, or an
    /// edge moved by a quarter second or more.
    func loadedRangesMoved(_ ranges: [TimeRange]) -> Bool {
        guard ranges.count == lastLoadedRanges.count else { return true }
        for (new, old) in zip(ranges, lastLoadedRanges)
        where abs(new.start.seconds - old.start.seconds) >= 0.25 || abs(new.end.seconds - old.end.seconds) >= 0.25 {
            return true
        }
        return false
    }
}
