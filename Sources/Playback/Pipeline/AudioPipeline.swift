import Foundation
import MediaIO

/// Decodes one item's audio on a thread of its own into a queue bounded by duration (about one second of media
/// ahead). Seeks are sample-accurate. At a playback rate other than 1 the queued audio is time-stretched with its
/// pitch kept (`AudioTempo`); buffer times stay in media time, so the engine releases buffers as the media playhead
/// passes them, and at rate 2 hands out about half as many sample frames per second of media.
/// Another audio track is selected by reading a new decoder from the same demuxer (``selectTrack(_:from:)``), at the
/// same output rate and channel count, from where the audio handed out ends.
/// All state is guarded by `condition` (the engine reads it one call at a time: ``snapshot()``,
/// ``takeBuffers(dueBy:)``), except `reader` and `tempo`, which only the decode thread touches (after `init`).
final class AudioPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private var reader: AudioSampleReader
    private let bufferLimit: Double
    private var queue: [AudioBuffer] = []
    private var queuedSeconds: Double = 0
    private var reachedEnd = false
    private var failure: MediaError?
    private var pendingSeek: MediaTime?
    /// The audio track to decode from the next seek on (a selection made while playing).
    private var pendingTrack: Int?
    private var generation: UInt64 = 0
    private var stopped = false
    private var busy = false
    private let onChange: @Sendable () -> Void
    /// The playback rate the queued audio is stretched for, and whether its pitch is kept (false: varispeed).
    private var rate: Double = 1
    private var keepsPitch = true
    /// Media time where the queued audio ends (the seek target until something is queued): where decoding resumes
    /// when a rate change finds the queue empty.
    private var queueEnd: MediaTime = .zero
    /// The time-stretcher, made on the decode thread when first needed; only that thread touches it.
    private var tempo: AudioTempo?

    init(reader: AudioSampleReader, bufferLimit: Double = 1.0, onChange: @escaping @Sendable () -> Void) {
        self.reader = reader
        self.sampleRate = reader.sampleRate
        self.channels = reader.channels
        self.bufferLimit = bufferLimit
        self.onChange = onChange
    }

    /// The output format, the same for every track selected later (what an audio device was opened with).
    let sampleRate: Int
    let channels: Int

    func start(name: String) {
        startDedicatedThread(name: "playctl.audio.\(name)") { [self] in run() }
    }

    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        queuedSeconds = 0
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Engine side (each call locks once)

    /// What the queue and the decoder are doing, at one instant.
    struct Snapshot: Sendable {
        /// Buffers queued.
        var count = 0
        /// The first queued buffer's time.
        var first: MediaTime?
        /// The last queued buffer's time, and where it ends at rate 1 (its own duration).
        var last: MediaTime?
        var lastEnd: MediaTime?
        /// Media seconds queued (at the current rate).
        var bufferedSeconds: Double = 0
        /// Where the decoded audio ends in media time: the end of the last buffer queued (or handed out), or the
        /// seek target until something is decoded after it.
        var decodedEnd: MediaTime = .zero
        var reachedEnd = false
        var failure: MediaError?
        /// A seek is pending, or the thread is decoding with nothing queued.
        var isWorking = false
        var hasPendingSeek = false
        /// Idle: nothing pending, and the queue is full or the track ended.
        var isSettled = false

        var ended: Bool { reachedEnd || failure != nil }
        /// Nothing is queued though the decoder has neither ended nor a seek to do.
        var isStarving: Bool { count == 0 && !ended && !hasPendingSeek }
    }

    func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(
            count: queue.count, first: queue.first?.time, last: queue.last?.time,
            lastEnd: queue.last.map { $0.time + $0.duration }, bufferedSeconds: queuedSeconds,
            decodedEnd: queueEnd, reachedEnd: reachedEnd, failure: failure,
            isWorking: pendingSeek != nil || (busy && queue.isEmpty), hasPendingSeek: pendingSeek != nil,
            isSettled: pendingSeek == nil && !busy
                && (queuedSeconds >= bufferLimit || reachedEnd || failure != nil))
    }

    /// Takes the buffers whose time is at or before `time` off the queue, each with where it ends in media time
    /// (its samples cover the rate they were stretched for times their own duration).
    func takeBuffers(dueBy time: MediaTime) -> [(buffer: AudioBuffer, end: MediaTime)] {
        condition.lock()
        defer { condition.unlock() }
        var due: [(AudioBuffer, MediaTime)] = []
        while let buffer = queue.first, buffer.time <= time {
            queue.removeFirst()
            queuedSeconds -= mediaSeconds(of: buffer)
            due.append((buffer, mediaEnd(of: buffer)))
        }
        if !due.isEmpty { condition.broadcast() }
        return due
    }

    /// Where `buffer` ends in media time (its samples cover `rate` times their own duration of media).
    private func mediaEnd(of buffer: AudioBuffer) -> MediaTime {
        let covered = Int64((Double(buffer.frameCount) * rate).rounded())
        return buffer.time + MediaTime(value: covered, timescale: Int32(buffer.sampleRate))
    }

    /// Drops what is queued and decodes from `target` on (sample-accurate).
    func requestSeek(to target: MediaTime) {
        condition.lock()
        defer { condition.unlock() }
        requestSeekLocked(to: target)
    }

    private func requestSeekLocked(to target: MediaTime) {
        pendingSeek = target
        generation += 1
        queue.removeAll()
        queuedSeconds = 0
        queueEnd = target
        reachedEnd = false
        condition.broadcast()
    }

    /// Decodes audio track `index` of the same media instead, from `time` on (sample-accurate): what is queued of
    /// the old track is dropped, as for a seek.
    func selectTrack(_ index: Int, from time: MediaTime) {
        condition.lock()
        defer { condition.unlock() }
        pendingTrack = index
        failure = nil
        requestSeekLocked(to: time)
    }

    /// Stretches the audio for playback at `newRate`, its pitch kept or (`keepsPitch` false) following the rate;
    /// zero, negative and non-finite rates are ignored (a paused player keeps its last rate).
    ///
    /// What is queued but not yet played was stretched for the old rate: it is dropped and decoded again, from its
    /// first sample, at the new rate. The filter's state is dropped too.
    func setRate(_ newRate: Double, keepsPitch newKeepsPitch: Bool = true) {
        condition.lock()
        defer { condition.unlock() }
        guard newRate.isFinite, newRate > 0, newRate != rate || newKeepsPitch != keepsPitch else { return }
        rate = newRate
        keepsPitch = newKeepsPitch
        // A pending seek already restarts decoding (and the filter) at the new rate; after the end with nothing
        // queued there is nothing left to stretch.
        guard pendingSeek == nil, !(reachedEnd && queue.isEmpty), failure == nil else { return }
        requestSeekLocked(to: queue.first?.time ?? queueEnd)
    }

    /// How much media a queued buffer covers, in seconds (its output duration times the rate it was stretched for:
    /// a rate change empties the queue, so that is the current rate).
    private func mediaSeconds(of buffer: AudioBuffer) -> Double {
        buffer.duration.seconds * rate
    }

    // MARK: Thread

    private func run() {
        condition.lock()
        while true {
            while !stopped && pendingSeek == nil && (queuedSeconds >= bufferLimit || reachedEnd || failure != nil) {
                condition.wait()
            }
            if stopped { break }
            let seek = pendingSeek
            let track = pendingTrack
            pendingSeek = nil
            pendingTrack = nil
            let startGeneration = generation
            let wantedRate = rate
            let wantedPitch = keepsPitch
            busy = true
            condition.unlock()
            let result = decodeStep(seek: seek, track: track, rate: wantedRate, keepsPitch: wantedPitch)
            condition.lock()
            busy = false
            if generation != startGeneration {
                // A newer seek came meanwhile; a track switch taken with this one must still happen with it.
                if let track, pendingTrack == nil, reader.track.index != track { pendingTrack = track }
                continue
            }
            switch result {
            case .success(let step):
                for buffer in step.buffers {
                    queue.append(buffer)
                    queuedSeconds += mediaSeconds(of: buffer)
                    queueEnd = mediaEnd(of: buffer)
                }
                if step.ended { reachedEnd = true }
            case .failure(let error): failure = error
            }
            condition.broadcast()
            condition.unlock()
            onChange()
            condition.lock()
        }
        condition.unlock()
    }

    /// Decode thread, unlocked: switches to audio track `track` and seeks if asked, decodes the next buffer and
    /// stretches it for `rate`. At the end of the track returns what the stretcher still held, with `ended`.
    private func decodeStep(
        seek: MediaTime?, track: Int?, rate: Double, keepsPitch: Bool
    ) -> Result<(buffers: [AudioBuffer], ended: Bool), MediaError> {
        do throws(MediaError) {
            if let track, track != reader.track.index {
                let demuxer = reader.demuxer
                demuxer.discardAllStreams(except: track)
                reader = try AudioSampleReader(
                    demuxer: demuxer, stream: track, sampleRate: sampleRate, channels: channels)
                tempo?.reset()
            }
            if let seek {
                try reader.seek(to: seek)
                tempo?.reset()
            }
            let tempo = try stretcher(for: rate, keepsPitch: keepsPitch)
            guard let buffer = try reader.nextBuffer() else { return .success((tempo.flush(), true)) }
            return .success((try tempo.process(buffer), false))
        } catch {
            return .failure(error)
        }
    }

    /// Decode thread: the stretcher, set to `rate` and `keepsPitch` (a change drops its state).
    private func stretcher(for rate: Double, keepsPitch: Bool) throws(MediaError) -> AudioTempo {
        if let tempo {
            try tempo.setRate(rate, keepsPitch: keepsPitch)
            return tempo
        }
        let made = try AudioTempo(
            sampleRate: reader.sampleRate, channels: reader.channels, rate: rate, keepsPitch: keepsPitch)
        tempo = made
        return made
    }
}
