import Foundation
import Loading
import MediaCore

/// The downloads ahead of the primary reader: one segment at a time on the session's thread, each timed for the
/// ABR machine's estimate; a buffer of a lower quality replaced past 10 s when the machine switches up.
extension StreamSession {
    /// The download thread's step: the next segment ahead of the primary reader, when less than `forwardSeconds`
    /// are held ahead of it, read through the cache with a reader of its own (a reader of the same segment joins
    /// its fetch, and it joins theirs); else a wait for a change. Returns false once the session is closed.
    func downloadNext() -> Bool {
        let next = withState { s -> (index: Int?, generation: UInt64, closed: Bool) in
            guard !s.closed else { return (nil, s.generation, true) }
            upgradeBuffered(&s)
            while s.downloaded.contains(s.downloadIndex) { s.downloadIndex += 1 }
            guard s.downloadIndex < s.reference.segments.count, bufferAhead(s) < forwardSeconds else {
                return (nil, s.generation, false)
            }
            defer { s.downloadIndex += 1 }
            return (s.downloadIndex, s.generation, false)
        }
        if next.closed { return false }
        guard let index = next.index else {
            waitForChange(after: next.generation)
            return true
        }
        let part: (variant: Variant, segment: Segment)?
        do throws(MediaError) {
            part = try segment(at: index)
        } catch {
            // The reader meets the same failure and reports it; downloads wait for the next change.
            return true
        }
        guard let segment = part?.segment else { return true }
        if let initialization = segment.initialization {
            _ = try? ResourceReader.bytes(initialization.url, range: initialization.byteRange, loading: loading)
        }
        let heldBefore = held(segment)
        let source = loading.source(segment.url, priority: priority)
        defer { source.close() }
        let proceed = withState { s -> Bool in
            guard !s.closed else { return false }
            s.downloading = (index, source)
            return true
        }
        guard proceed else { return false }
        let started = ContinuousClock.now
        let completed = drain(source, range: segment.byteRange)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let bytes = max(held(segment) - heldBefore, 0)
        withState { s in
            // Stopped by a seek or the end (its source closed: its reads came to an end early).
            guard s.downloading?.source === source else { return }
            s.downloading = nil
            guard completed else { return }
            s.downloaded.insert(index)
            s.bytesDownloaded += bytes
            // Bytes that were held already took no time on the link: only a transfer measures it.
            if bytes >= 16 << 10 {
                s.abr.segmentLoaded(bytes: Int(bytes), seconds: seconds, variantID: s.decisions[index] ?? "")
                if let measured = s.abr.estimator.estimate { SharedBandwidthEstimate.shared.record(measured) }
            }
        }
        return true
    }

    /// Seconds of media ahead of the primary reader kept when the buffer is replaced at a higher quality.
    static let retainedSeconds = 10.0

    /// A quality increase with a deep buffer of lower quality (Media3's `AdaptiveTrackSelection` discards the
    /// queue past `minDurationToRetainAfterDiscardMs` when it switches up): the segments downloaded ahead past
    /// ``retainedSeconds`` at a lower variant than the machine would choose now are decided and downloaded again.
    /// Without it, a link that comes back after a dip plays up to a whole forward buffer (30 s) of the dip's
    /// quality first. Not for live playlists (one variant).
    private func upgradeBuffered(_ s: inout State) {
        let segments = s.reference.segments
        guard s.liveVariant == nil, !segments.isEmpty, bufferAhead(s) > Self.retainedSeconds else { return }
        var probe = s.abr
        probe.bufferLevel(Self.retainedSeconds)
        let decision = probe.nextSegment(duration: segments[min(s.downloadIndex, segments.count - 1)].duration)
        guard decision.reason == .bandwidthUp else { return }
        func rank(_ id: String) -> Int { s.abr.variants.firstIndex { $0.id == id } ?? 0 }
        let target = rank(decision.variant.id)
        var first = s.readerIndex + 1
        var retained = 0.0
        while first < segments.count, retained < Self.retainedSeconds {
            retained += segments[first].duration
            first += 1
        }
        let downloading = s.downloading?.index
        var dropped = false
        for index in first..<segments.count where index != downloading {
            guard let id = s.decisions[index], rank(id) < target else { continue }
            s.decisions[index] = nil
            s.downloaded.remove(index)
            dropped = true
        }
        if dropped { s.downloadIndex = min(s.downloadIndex, first) }
    }

    /// Reads `source` (from `range`'s start to its end, or to the resource's end), dropping the bytes: they stay in
    /// the cache for the readers. Returns whether it got to the end.
    private func drain(_ source: RemoteByteSource, range: ByteRange?) -> Bool {
        do throws(MediaError) {
            if let range {
                try source.seek(to: range.offset)
                source.setFetchLimit(range.end)
            }
            var left = range?.length ?? Int64.max
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            while left > 0 {
                let room = Int(min(Int64(buffer.count), left))
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<room]))
                if count == 0 { return range == nil }
                left -= Int64(count)
            }
            return true
        } catch {
            return false
        }
    }

    /// Bytes of `segment` held in the cache.
    private func held(_ segment: Segment) -> Int64 {
        let ranges = loading.cache.cachedRanges(of: segment.url)
        let window = segment.byteRange.map { $0.offset..<$0.end } ?? 0..<Int64.max
        return ranges.reduce(0) { total, range in
            let low = max(range.lowerBound, window.lowerBound)
            let high = min(range.upperBound, window.upperBound)
            return total + max(high - low, 0)
        }
    }
}
