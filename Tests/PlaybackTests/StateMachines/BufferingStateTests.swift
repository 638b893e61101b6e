import MediaIO
import Playback
import Testing

@Suite struct BufferingStateTests {
    /// Measures `ahead` seconds with the automatic target (2 s: start 0.5 s, keep 0.125 s) unless told.
    static func measure(
        _ state: BufferingState, _ ahead: Double, preferred: Double = 0,
        eof: Bool = false, full: Bool = false
    ) -> BufferingState {
        state.updated(
            bufferedAhead: MediaTime(seconds: ahead, preferredTimescale: 90_000),
            preferredForwardBufferDuration: preferred, reachedEndOfFile: eof, queueIsFull: full)
    }

    static func flags(_ state: BufferingState) -> [Bool] {
        [state.isPlaybackLikelyToKeepUp, state.isPlaybackBufferEmpty, state.isPlaybackBufferFull]
    }

    @Test func newItemIsEmptyAndNotLikely() {
        #expect(Self.flags(BufferingState()) == [false, true, false])
    }

    @Test func thresholdsFollowTheTarget() {
        #expect(BufferingState.forwardBufferTarget(preferredForwardBufferDuration: 0) == 2)
        #expect(BufferingState.forwardBufferTarget(preferredForwardBufferDuration: -3) == 2)
        #expect(BufferingState.forwardBufferTarget(preferredForwardBufferDuration: .nan) == 2)
        #expect(BufferingState.forwardBufferTarget(preferredForwardBufferDuration: 5) == 5)
        #expect(BufferingState.startThreshold(preferredForwardBufferDuration: 0) == 0.5)
        #expect(BufferingState.startThreshold(preferredForwardBufferDuration: 0.2) == 0.2)
        #expect(BufferingState.keepThreshold(preferredForwardBufferDuration: 0) == 0.125)
        #expect(BufferingState.keepThreshold(preferredForwardBufferDuration: 0.2) == 0.05)
    }

    @Test func emptyOnlyWithNothingAheadAndMoreToCome() {
        #expect(Self.flags(Self.measure(BufferingState(), 0)) == [false, true, false])
        #expect(Self.flags(Self.measure(BufferingState(), 0.01)) == [false, false, false])
        #expect(
            Self.flags(Self.measure(BufferingState(), 0, eof: true)) == [true, false, false],
            "at the end of the file everything left is buffered")
    }

    @Test func fullByQueueOrByTarget() {
        #expect(Self.flags(Self.measure(BufferingState(), 0.1, full: true)) == [true, false, true])
        #expect(Self.flags(Self.measure(BufferingState(), 2)) == [true, false, true])
        #expect(Self.flags(Self.measure(BufferingState(), 1.99)) == [true, false, false])
        #expect(Self.flags(Self.measure(BufferingState(), 4.9, preferred: 5)) == [true, false, false])
        #expect(Self.flags(Self.measure(BufferingState(), 5, preferred: 5)) == [true, false, true])
    }

    @Test func likelyToKeepUpHasHysteresis() {
        var state = BufferingState()
        var likely: [Bool] = []
        for ahead in [0.2, 0.49, 0.5, 0.3, 0.125, 0.124, 0.3, 0.49, 0.5] {
            state = Self.measure(state, ahead)
            likely.append(state.isPlaybackLikelyToKeepUp)
        }
        #expect(likely == [false, false, true, true, true, false, false, false, true])
    }

    @Test func smallPreferredTargetLowersBothThresholds() {
        var state = Self.measure(BufferingState(), 0.2, preferred: 0.2)
        #expect(Self.flags(state) == [true, false, true])
        state = Self.measure(state, 0.06, preferred: 0.2)
        #expect(state.isPlaybackLikelyToKeepUp)
        state = Self.measure(state, 0.04, preferred: 0.2)
        #expect(!state.isPlaybackLikelyToKeepUp)
    }

    @Test func nonNumericDurations() {
        let infinite = BufferingState().updated(
            bufferedAhead: .positiveInfinity, preferredForwardBufferDuration: 0,
            reachedEndOfFile: false, queueIsFull: false)
        #expect(Self.flags(infinite) == [true, false, true])
        for nothing in [MediaTime.invalid, .indefinite, .negativeInfinity, MediaTime(value: -5, timescale: 10)] {
            let state = infinite.updated(
                bufferedAhead: nothing, preferredForwardBufferDuration: 0,
                reachedEndOfFile: false, queueIsFull: false)
            #expect(Self.flags(state) == [false, true, false], "\(nothing)")
        }
    }

    @Test func timescaleDoesNotMatter() {
        let coarse = BufferingState().updated(
            bufferedAhead: MediaTime(value: 1, timescale: 2),
            preferredForwardBufferDuration: 0, reachedEndOfFile: false, queueIsFull: false)
        let fine = BufferingState().updated(
            bufferedAhead: MediaTime(value: 45_000, timescale: 90_000),
            preferredForwardBufferDuration: 0, reachedEndOfFile: false, queueIsFull: false)
        #expect(coarse == fine)
        #expect(coarse.isPlaybackLikelyToKeepUp)
    }
    /// Measures over a link: `ahead` seconds, with the decoders ready or not and a predicted shortfall.
    static func remote(
        _ state: BufferingState, _ ahead: Double, decoders: Bool, shortfall: Double = 0
    ) -> BufferingState {
        state.updated(
            bufferedAhead: MediaTime(seconds: ahead), preferredForwardBufferDuration: 0, reachedEndOfFile: false,
            queueIsFull: false, predictedShortfall: shortfall, decodersReady: decoders)
    }

    @Test func fullAndEmptyHaveHysteresis() {
        var state = BufferingState()
        var full: [Bool] = []
        for ahead in [1.9, 2.0, 1.9, 1.76, 1.75, 1.74, 1.9, 2.0] {
            state = Self.measure(state, ahead)
            full.append(state.isPlaybackBufferFull)
        }
        #expect(full == [false, true, true, true, true, false, false, true])
        var empty: [Bool] = []
        for ahead in [0.3, 0, 0.01, 0.124, 0.125, 0.01, 0] {
            state = Self.measure(state, ahead)
            empty.append(state.isPlaybackBufferEmpty)
        }
        #expect(empty == [false, true, true, true, false, false, true])
    }

    @Test func decodersGateOnlyTheStartAndAStallEndsLikely() {
        // Bytes alone do not start playback; once started, a decoded queue that drains by a frame changes nothing.
        var state = Self.remote(BufferingState(), 1, decoders: false)
        #expect(!state.isPlaybackLikelyToKeepUp)
        state = Self.remote(state, 1, decoders: true)
        #expect(state.isPlaybackLikelyToKeepUp)
        for decoders in [false, true, false, false, true] {
            state = Self.remote(state, 1, decoders: decoders)
            #expect(state.isPlaybackLikelyToKeepUp)
        }
        // Playback ran out: not likely until the decoders are ahead again.
        state.stalled()
        #expect(!state.isPlaybackLikelyToKeepUp)
        state = Self.remote(state, 1, decoders: false)
        #expect(!state.isPlaybackLikelyToKeepUp)
        state = Self.remote(state, 1, decoders: true)
        #expect(state.isPlaybackLikelyToKeepUp)
    }

    @Test func predictionHasHysteresis() {
        var state = Self.remote(BufferingState(), 1, decoders: true)
        #expect(state.isPlaybackLikelyToKeepUp)
        state = Self.remote(state, 1, decoders: true, shortfall: 0.1)
        #expect(state.isPlaybackLikelyToKeepUp, "a shortfall within keep (0.125 s) does not end it")
        state = Self.remote(state, 1, decoders: true, shortfall: 0.2)
        #expect(!state.isPlaybackLikelyToKeepUp)
        state = Self.remote(state, 1, decoders: true, shortfall: 0.1)
        #expect(!state.isPlaybackLikelyToKeepUp, "it comes back only with no shortfall at all")
        state = Self.remote(state, 1, decoders: true)
        #expect(state.isPlaybackLikelyToKeepUp)
    }
}
