extension Player {
    /// Starts a drag of the seek bar: the player pauses (its rate is restored by ``endScrubbing()``), and each
    /// ``scrub(to:)`` shows the keyframe at or before its position at once, at most one seek in flight, the newest
    /// position replacing any that waited (QA1820's "chase" seek). A second call while scrubbing changes nothing.
    public func beginScrubbing() { scrubbing.begin(self) }

    /// The finger is at `time`: shows the keyframe at or before it, or (a seek being in flight) waits to, replacing
    /// any position that waited. Ignored outside ``beginScrubbing()`` and ``endScrubbing()``.
    public func scrub(to time: MediaTime) { scrubbing.scrub(self, to: time) }

    /// Ends the drag: once the seek in flight completes, seeks exactly to the last position and returns when that
    /// frame landed, with the drag's figures; then restores the rate the player had before the drag.
    @discardableResult
    public func endScrubbing() async -> ScrubStatistics { await scrubbing.end(self) }

    /// Whether a drag is going on (from ``beginScrubbing()`` until the exact frame of ``endScrubbing()`` landed).
    public var isScrubbing: Bool { scrubbing.isScrubbing }
}
