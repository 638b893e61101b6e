/// What the primary reader got to: the variant it reads (where switches take effect) and the segments loaded.
extension StreamSession {
    /// Calls `observer` each time the primary reader enters a segment of another variant than the segment it read
    /// before (the first segment read included): when a switch takes effect, its bytes going to the demuxer. Called
    /// on the reader's thread with no lock held. Returns the variant read last, if the reader has begun.
    @discardableResult
    public func observeVariantsRead(_ observer: @escaping @Sendable (VariantRead) -> Void) -> VariantRead? {
        withState { s in
            s.readObservers.append(observer)
            return s.read
        }
    }

    /// The variant of the last segment the primary reader entered, with that segment (nil before the first).
    public var variantRead: VariantRead? { withState { $0.read } }

    /// The media time spans, in seconds, of the segments loaded: downloaded ahead or entered by the primary reader
    /// (contiguous segments make one span), in order; times from where the play started, as ``index(containing:)``
    /// takes them.
    public var loadedSpans: [(start: Double, end: Double)] {
        withState { s in
            let origin = s.origin
            var spans: [(start: Double, end: Double)] = []
            var last: Int?
            for index in s.downloaded.union(s.entered).sorted() {
                guard let segment = s.timelineSegment(index) else { continue }
                let start = segment.start - origin
                if let last, last == index - 1, let span = spans.last {
                    spans[spans.count - 1] = (span.start, start + segment.duration)
                } else {
                    spans.append((start, start + segment.duration))
                }
                last = index
            }
            return spans
        }
    }
}
