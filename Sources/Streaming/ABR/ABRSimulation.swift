/// A play of an ``ABRMachine`` against a scripted link, in virtual time: for tests and benchmarks of the rules.
///
/// The model: segments of ``segmentDuration`` seconds, fetched one after another; a segment of a variant is
/// `averageBandwidth x segmentDuration` bits (its peak `bandwidth` when it has no average) and takes as long as the
/// link needs at its rate of the moment (the rate may change during a download); while it downloads, the playhead
/// drains the buffer (a stall when it runs dry, until the segment is in); playback starts, and restarts after a
/// stall, as soon as one segment is buffered; the fetch waits while more than ``maxForwardBuffer`` is buffered.
/// After each segment the machine hears `segmentLoaded`, `stalled` (when the buffer ran dry during it) and
/// `bufferLevel`, in that order. With ``checksDownloads`` (the stream session's driver does), every 100 ms of a
/// download while media is buffered the machine hears `bufferLevel` and `downloadProgress` (the abandon rule): a
/// download it gives up took its time on the link, and the same segment is fetched from the variant it chose.
/// With ``replacesOnSwitchUp`` (the stream session does), before each segment the machine is asked for a switch up
/// that replaces the buffer (``ABRMachine/switchUpReplacingBuffer(duration:)``): the whole segments buffered past
/// the seconds it keeps, from the first one of a lower variant than its choice, are dropped and fetched again.
public struct ABRSimulation: Sendable, Equatable {
    /// The link's rate for some seconds of wall time; the last phase lasts forever.
    public struct LinkPhase: Sendable, Equatable {
        public var seconds: Double
        public var bitsPerSecond: Double
        public init(seconds: Double, bitsPerSecond: Double) {
            self.seconds = seconds
            self.bitsPerSecond = bitsPerSecond
        }
    }

    /// What a play gave.
    public struct Result: Sendable, Equatable {
        /// The bit rate of each segment played (its variant's average, else its peak), in play order.
        public var bitrates: [Int]
        public var stalls: Int
        /// Wall seconds the playhead waited after it had started (startup excluded).
        public var stalledSeconds: Double
        /// The machine's switch count at the end.
        public var switches: Int
        /// Wall seconds from the first request to the last segment's arrival.
        public var wallSeconds: Double
        /// The link's mean rate over ``wallSeconds``, bits per second.
        public var meanLinkRate: Double
        /// Segments dropped from the buffer by switches up, to be fetched again at a higher variant.
        public var replacedSegments = 0
        /// The least media left buffered when the first segment after a replacement arrived (negative: it stalled);
        /// nil without a replacement.
        public var lowestBufferAfterReplacement: Double?
        /// The mean bandwidth of the segments played (they are of equal duration), bits per second.
        public var meanBitrate: Double {
            bitrates.isEmpty ? 0 : Double(bitrates.reduce(0, +)) / Double(bitrates.count)
        }
    }

    public var link: [LinkPhase]
    public var segmentDuration: Double
    /// Seconds of media played (rounded up to whole segments).
    public var mediaDuration: Double
    /// The fetch pauses while more than this many seconds are buffered (30 s, hls.js's `maxBufferLength`).
    public var maxForwardBuffer: Double
    /// Whether downloads under way are checked by the abandon rule (``ABRMachine/downloadProgress(variantID:bytes:expectedBytes:seconds:receivingSeconds:duration:)``).
    public var checksDownloads: Bool
    /// Whether a switch up replaces the buffer of lower variants past what the machine keeps (the stream session's
    /// fast switching).
    public var replacesOnSwitchUp: Bool

    /// Rates under 1 bit/s are taken as 1 bit/s and durations that are not positive as 0 (a phase of no time), so
    /// every download ends; an empty link is one phase of 1 bit/s.
    public init(
        link: [LinkPhase], segmentDuration: Double = 2, mediaDuration: Double, maxForwardBuffer: Double = 30,
        checksDownloads: Bool = true, replacesOnSwitchUp: Bool = true
    ) {
        self.checksDownloads = checksDownloads
        self.replacesOnSwitchUp = replacesOnSwitchUp
        let phases = link.map {
            LinkPhase(
                seconds: $0.seconds.isFinite && $0.seconds > 0 ? $0.seconds : 0,
                bitsPerSecond: $0.bitsPerSecond.isFinite ? max(1, $0.bitsPerSecond) : 1)
        }
        self.link = phases.isEmpty ? [LinkPhase(seconds: 0, bitsPerSecond: 1)] : phases
        self.segmentDuration = segmentDuration.isFinite && segmentDuration > 0 ? segmentDuration : 2
        self.mediaDuration = mediaDuration.isFinite && mediaDuration > 0 ? mediaDuration : 0
        self.maxForwardBuffer = maxForwardBuffer.isFinite && maxForwardBuffer > 0 ? maxForwardBuffer : 30
    }

    /// Plays the whole media with `machine`, which keeps what it learnt (its estimate, switches, history).
    public func run(_ machine: inout ABRMachine) -> Result {
        let count = Int((mediaDuration / segmentDuration).rounded(.up))
        var result = Result(bitrates: [], stalls: 0, stalledSeconds: 0, switches: 0, wallSeconds: 0, meanLinkRate: 0)
        var now = 0.0
        var buffer = 0.0
        var playing = false
        // Each replacement re-fetches segments at a higher variant: at most as many rounds as the ladder has rungs.
        var rounds = 0
        while result.bitrates.count < count, rounds < count * (machine.variants.count + 1) {
            rounds += 1
            var replaced: Variant?
            if replacesOnSwitchUp, let replacement = replaceBuffer(&result, buffer, &machine) {
                buffer -= replacement.dropped
                replaced = replacement.variant
            }
            var variant = replaced ?? machine.nextSegment(duration: segmentDuration).variant
            var bits = Self.bits(of: variant, duration: segmentDuration)
            var download = downloadTime(bits: bits, from: now)
            // The abandon rule: a download given up took its time; the segment is fetched again from the choice.
            while checksDownloads, playing,
                let given = abandon(variant, bits: bits, from: now, buffer: buffer, machine: &machine)
            {
                now += given.spent
                buffer -= given.spent
                variant = given.choice
                bits = Self.bits(of: variant, duration: segmentDuration)
                download = downloadTime(bits: bits, from: now)
            }
            if replaced != nil {
                result.lowestBufferAfterReplacement = min(
                    result.lowestBufferAfterReplacement ?? .infinity, buffer - download)
            }
            var stalled = false
            if playing {
                if buffer < download {
                    stalled = true
                    result.stalls += 1
                    result.stalledSeconds += download - buffer
                    buffer = 0
                } else {
                    buffer -= download
                }
            }
            now += download
            buffer += segmentDuration
            playing = true
            result.bitrates.append(variant.averageBandwidth ?? variant.bandwidth)
            machine.segmentLoaded(bytes: Int(bits / 8), seconds: download, variantID: variant.id)
            if stalled { _ = machine.stalled() }
            machine.bufferLevel(buffer)
            if buffer > maxForwardBuffer {
                now += buffer - maxForwardBuffer
                buffer = maxForwardBuffer
                machine.bufferLevel(buffer)
            }
        }
        result.switches = machine.switches
        result.wallSeconds = now
        result.meanLinkRate = now > 0 ? bitsDelivered(until: now) / now : link[0].bitsPerSecond
        return result
    }

    /// The machine's switch up with replacement, with `buffer` seconds buffered: the whole segments buffered past the
    /// seconds it keeps, from the first one of a lower variant than its choice, are dropped (to be fetched again, the
    /// first from the choice). Returns the seconds of media dropped and the choice; nil (the machine unchanged) when
    /// it would not switch up or nothing is dropped.
    private func replaceBuffer(
        _ result: inout Result, _ buffer: Double, _ machine: inout ABRMachine
    ) -> (dropped: Double, variant: Variant)? {
        var probe = machine
        probe.bufferLevel(buffer)
        guard let replacement = probe.switchUpReplacingBuffer(duration: segmentDuration) else { return nil }
        let rate = replacement.decision.variant.averageBandwidth ?? replacement.decision.variant.bandwidth
        let beyond = Int(((buffer - replacement.retained) / segmentDuration).rounded(.down))
        let tail = result.bitrates.count - min(beyond, result.bitrates.count)
        guard let first = result.bitrates[tail...].firstIndex(where: { $0 < rate }) else { return nil }
        let dropped = result.bitrates.count - first
        result.bitrates.removeLast(dropped)
        result.replacedSegments += dropped
        machine = probe
        return (Double(dropped) * segmentDuration, replacement.decision.variant)
    }

    /// The bits of one segment of `variant`: its average bit rate over `duration` (its peak without one).
    static func bits(of variant: Variant, duration: Double) -> Double {
        Double(variant.averageBandwidth ?? variant.bandwidth) * duration
    }

    /// The abandon rule's checks, every 100 ms, of a download of `bits` of `variant` begun at `start` with `buffer`
    /// seconds buffered: the seconds spent and the variant chosen when the machine gives it up, nil when it
    /// completes (or the buffer runs dry first: the reader then waits for this segment, which is never changed).
    private func abandon(
        _ variant: Variant, bits: Double, from start: Double, buffer: Double, machine: inout ABRMachine
    ) -> (spent: Double, choice: Variant)? {
        let total = downloadTime(bits: bits, from: start)
        let before = bitsDelivered(until: start)
        var elapsed = 0.1
        while elapsed < total, elapsed < buffer {
            machine.bufferLevel(buffer - elapsed)
            let bytes = Int((bitsDelivered(until: start + elapsed) - before) / 8)
            if let decision = machine.downloadProgress(
                variantID: variant.id, bytes: bytes, expectedBytes: Int(bits / 8), seconds: elapsed,
                duration: segmentDuration)
            {
                return (elapsed, decision.variant)
            }
            elapsed += 0.1
        }
        return nil
    }

    /// Seconds the link needs to deliver `bits` starting at wall time `start`.
    public func downloadTime(bits: Double, from start: Double) -> Double {
        var remaining = max(0, bits)
        var time = start
        var phaseStart = 0.0
        for (index, phase) in link.enumerated() {
            let phaseEnd = index == link.count - 1 ? Double.infinity : phaseStart + phase.seconds
            if time < phaseEnd {
                let capacity = (phaseEnd - time) * phase.bitsPerSecond
                if capacity >= remaining { return time + remaining / phase.bitsPerSecond - start }
                remaining -= capacity
                time = phaseEnd
            }
            phaseStart = phaseEnd
        }
        return time - start
    }

    /// Bits the link could carry from wall time 0 to `end`.
    public func bitsDelivered(until end: Double) -> Double {
        var total = 0.0
        var phaseStart = 0.0
        for (index, phase) in link.enumerated() where phaseStart < end {
            let phaseEnd = index == link.count - 1 ? end : min(end, phaseStart + phase.seconds)
            total += (phaseEnd - phaseStart) * phase.bitsPerSecond
            phaseStart = phaseEnd
        }
        return total
    }
}
