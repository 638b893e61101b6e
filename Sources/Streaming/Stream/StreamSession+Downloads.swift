import Foundation
import Loading
import MediaCore

/// The downloads ahead of the primary reader: one segment at a time on the session's thread, each timed for the
/// ABR machine's estimate; a buffer of a lower quality replaced when the machine switches up (fast switching).
extension StreamSession {
    /// The download thread's step: the next segment ahead of the primary reader, when less than `forwardSeconds`
    /// are held ahead of it, read through the cache with a reader of its own (a reader of the same segment joins
    /// its fetch, and it joins theirs); else a wait for a change. Returns false once the session is closed.
    func downloadNext() -> Bool {
        // The audio rendition's next segment first when its audio held ends before the video's.
        if downloadAudioIfDue() { return true }
        let (next, upgrade) = withState { s -> ((index: Int?, generation: UInt64, closed: Bool), Upgrade?) in
            guard !s.closed else { return ((nil, s.generation, true), nil) }
            let upgrade = upgradeBuffered(&s).map { ($0, s.observers) }
            while s.downloaded.contains(s.downloadIndex) { s.downloadIndex += 1 }
            guard s.downloadIndex < s.endIndex, bufferAhead(s) < forwardSeconds else {
                return ((nil, s.generation, false), upgrade)
            }
            defer { s.downloadIndex += 1 }
            return ((s.downloadIndex, s.generation, false), upgrade)
        }
        if let (change, observers) = upgrade { for observer in observers { observer(change) } }
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
        let completed = drain(source, range: segment.byteRange) { read, firstByte in
            abandonIfSlow(
                index, source: source, bytes: read, expected: segment.byteRange?.length,
                seconds: Self.seconds(since: started), receiving: Self.seconds(since: firstByte))
        }
        let seconds = Self.seconds(since: started)
        let bytes = max(held(segment) - heldBefore, 0)
        withState { s in
            // Stopped by a seek or the end (its source closed: its reads came to an end early).
            guard s.downloading?.source === source else { return }
            s.downloading = nil
            guard completed else { return }
            downloaded(index, bytes: bytes, seconds: seconds, &s)
        }
        return true
    }

    /// Segment `index` was downloaded: `bytes` that were not held before, in `seconds`. It counts as held ahead, and
    /// a transfer (not bytes already held: they took no time on the link) feeds the bandwidth estimate.
    func downloaded(_ index: Int, bytes: Int64, seconds: Double, _ s: inout State) {
        guard s.timelineSegment(index) != nil else { return }
        s.downloaded.insert(index)
        s.bytesDownloaded += bytes
        if bytes >= 16 << 10 {
            s.abr.segmentLoaded(bytes: Int(bytes), seconds: seconds, variantID: s.decisions[index] ?? "")
            if let measured = s.abr.estimator.estimate { bandwidthEstimate.record(measured) }
        }
    }

    /// The abandon rule's check (``ABRMachine/downloadProgress(variantID:bytes:expectedBytes:seconds:duration:)``)
    /// for the download of segment `index` under way through `source`: on a switch, the segment is decided again at
    /// the lower variant (its observers told, with no lock held), downloaded again from it, and this download stops
    /// (true). Only for a segment the primary reader has not begun (what it reads is never changed under it) once
    /// the reader's own segment is all held (before, the two fetches share the link); and
    /// only while a player on a real clock reports its playhead (``playheadMoved(to:)``): without a deadline (an
    /// untimed or manual clock, a pause) no download is too slow.
    private func abandonIfSlow(
        _ index: Int, source: RemoteByteSource, bytes: Int64, expected: Int64?, seconds: Double, receiving: Double
    ) -> Bool {
        let size = expected ?? source.progress.totalLength
        // While the reader still fetches its own segment the two share the link, and this download's rate says
        // half of it (at a play's start every next segment looked too slow).
        let reading = withState { s -> Segment? in
            guard !s.isLive, let id = s.decisions[s.readerIndex],
                let playlist = s.playlists[id],
                s.readerIndex < playlist.segments.count
            else { return nil }
            return playlist.segments[s.readerIndex]
        }
        guard let reading, isHeld(reading) else { return false }
        let (change, observers) = withState { s -> (VariantSwitch?, [@Sendable (VariantSwitch) -> Void]) in
            guard s.downloading?.source === source, index > s.readerIndex, !s.isLive,
                let id = s.decisions[index], let listed = s.timelineSegment(index)
            else { return (nil, []) }
            let duration = listed.duration
            guard let buffered = bufferAheadOfPlayhead(s) else { return (nil, []) }
            s.abr.bufferLevel(buffered)
            guard
                let decision = s.abr.downloadProgress(
                    variantID: id, bytes: Int(bytes), expectedBytes: size.map { Int($0) }, seconds: seconds,
                    receivingSeconds: receiving, duration: duration)
            else { return (nil, []) }
            let from = presentation.variants.first { $0.id == id }
            s.decisions[index] = decision.variant.id
            s.current = decision.variant
            s.downloading = nil
            s.downloadIndex = index
            s.generation += 1
            let change = VariantSwitch(
                from: from, to: decision.variant, segmentIndex: index, seconds: listed.start,
                reason: decision.reason.rawValue, estimate: s.abr.estimate)
            s.recordSwitch(change)
            return (change, s.observers)
        }
        guard let change else { return false }
        for observer in observers { observer(change) }
        return true
    }

    /// Seconds of media held ahead of the playhead: from it to the end of the segments held in a row from the
    /// reader's (the reader's own counted whole). Nil without a playhead reported in the last half second.
    private func bufferAheadOfPlayhead(_ s: State) -> Double? {
        guard let playhead = s.playhead, ContinuousClock.now - playhead.at < .milliseconds(500),
            let reading = s.timelineSegment(s.readerIndex)
        else { return nil }
        let origin = s.origin
        let end = reading.start + reading.duration + bufferAhead(s)
        return max(0, end - (playhead.seconds + origin))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A switch up with replacement and the observers to tell of it, with no lock held.
    typealias Upgrade = (VariantSwitch, [@Sendable (VariantSwitch) -> Void])

    /// Fast switching (``ABRMachine/switchUpReplacingBuffer(duration:)``, dash.js's `fastSwitchEnabled`): when the
    /// machine switches up with a buffer of lower quality ahead of the reader, the segments past the seconds it
    /// keeps (counted from the end of the reader's segment) at a lower variant than its choice are decided and
    /// downloaded again, the first of them now at the new variant (the switch returned, for the observers).
    /// Without it, a link that comes back after a dip plays up to a whole forward buffer (30 s) of the dip's quality
    /// first. Not for live playlists (one variant).
    private func upgradeBuffered(_ s: inout State) -> VariantSwitch? {
        let segments = s.reference.segments
        guard !s.isLive, !segments.isEmpty, s.downloading == nil else { return nil }
        var probe = s.abr
        probe.bufferLevel(bufferAhead(s))
        let duration = segments[min(s.downloadIndex, segments.count - 1)].duration
        guard let replacement = probe.switchUpReplacingBuffer(duration: duration) else { return nil }
        let variant = replacement.decision.variant
        func rank(_ id: String) -> Int { s.abr.variants.firstIndex { $0.id == id } ?? 0 }
        let target = rank(variant.id)
        var first = s.readerIndex + 1
        var retained = 0.0
        while first < segments.count, retained < replacement.retained {
            retained += segments[first].duration
            first += 1
        }
        var dropped: [Int] = []
        for index in first..<segments.count {
            guard let id = s.decisions[index], rank(id) < target else { continue }
            s.decisions[index] = nil
            s.downloaded.remove(index)
            dropped.append(index)
        }
        guard let replaced = dropped.first, let listed = s.timelineSegment(replaced) else { return nil }
        s.abr = probe
        s.downloadIndex = min(s.downloadIndex, first)
        s.decisions[replaced] = variant.id
        let change = VariantSwitch(
            from: s.current, to: variant, segmentIndex: replaced, seconds: listed.start - s.origin,
            reason: replacement.decision.reason.rawValue, estimate: s.abr.estimate)
        s.recordSwitch(change)
        s.current = variant
        s.generation += 1
        return change
    }

    /// Reads `source` (from `range`'s start to its end, or to the resource's end), dropping the bytes: they stay in
    /// the cache for the readers. Every 100 ms `giveUp` is asked, with the bytes read so far and when the first of
    /// them came, whether to stop. Returns whether it got to the end.
    func drain(
        _ source: RemoteByteSource, range: ByteRange?, giveUp: (Int64, ContinuousClock.Instant) -> Bool
    ) -> Bool {
        do throws(MediaError) {
            if let range {
                try source.seek(to: range.offset)
                source.setFetchLimit(range.end)
            }
            var left = range?.length ?? Int64.max
            var read: Int64 = 0
            var asked = ContinuousClock.now
            var firstByte: ContinuousClock.Instant?
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            while left > 0 {
                let room = Int(min(Int64(buffer.count), left))
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<room]))
                if count == 0 { return range == nil }
                left -= Int64(count)
                read += Int64(count)
                if firstByte == nil { firstByte = ContinuousClock.now }
                if left > 0, let firstByte, ContinuousClock.now - asked >= .milliseconds(100) {
                    asked = ContinuousClock.now
                    if giveUp(read, firstByte) { return false }
                }
            }
            return true
        } catch {
            return false
        }
    }

    /// Whether all of `segment` is held in the cache (its length known from a response, when it has no range).
    private func isHeld(_ segment: Segment) -> Bool {
        guard let length = segment.byteRange?.length ?? loading.cache.heldPrefix(of: segment.url, upTo: 0).totalLength
        else { return false }
        return held(segment) >= length
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
