import MediaCore

/// Where a DASH Representation's segments are: a `SegmentTemplate`, a `SegmentList` or a `SegmentBase`, found at the
/// Representation, its AdaptationSet or its Period (the most specific level that has one decides which; its
/// attributes and children are inherited from the levels above, ISO/IEC 23009-1 §5.3.9).
struct DASHSegmentAddressing {
    /// The manifest's URL, for errors.
    let url: String
    /// The Representation's base URL (its BaseURLs resolved down from the MPD's).
    let base: String
    let values: DASHSegmentTemplate.Values
    /// The period's duration in seconds, when known.
    let periodDuration: Double?
    /// Segments left to the whole manifest (a bound on what a hostile MPD makes us allocate).
    var budget: Int
    /// A dynamic MPD's timing; nil for a static one.
    var live: DASHLiveTiming?

    /// The segments of the Representation whose levels (Period, AdaptationSet, Representation) are `levels`.
    mutating func media(levels: [XMLTreeElement]) throws(MediaError) -> MediaReference {
        for level in levels.reversed() {
            if level.child("SegmentTemplate") != nil {
                return .segments(try template(merged("SegmentTemplate", levels)))
            }
            if level.child("SegmentList") != nil || level.child("SegmentBase") != nil, live != nil {
                throw MediaError(
                    .refusedByPolicy, url: url, operation: .open,
                    reason: "live DASH (type=dynamic) without a SegmentTemplate is not supported")
            }
            if level.child("SegmentList") != nil { return .segments(try list(merged("SegmentList", levels))) }
            if level.child("SegmentBase") != nil { return try indexed(merged("SegmentBase", levels)) }
        }
        throw DASHManifestParser.malformed(
            url, "Representation '\(values.representationID)' has no SegmentTemplate, SegmentList or SegmentBase")
    }

    /// The element `name` as inherited down `levels`: attributes of the lower levels override, and each kind of
    /// child comes from the lowest level that has it.
    private func merged(_ name: String, _ levels: [XMLTreeElement]) -> XMLTreeElement {
        var result = XMLTreeElement(name: name, attributes: [:], text: "", children: [])
        for element in levels.compactMap({ $0.child(name) }) {
            result.attributes.merge(element.attributes) { _, lower in lower }
            let names = Set(element.children.map(\.name))
            result.children = result.children.filter { !names.contains($0.name) } + element.children
        }
        return result
    }

    private mutating func template(_ element: XMLTreeElement) throws(MediaError) -> MediaPlaylist {
        guard let media = element["media"] else {
            throw DASHManifestParser.malformed(url, "SegmentTemplate without @media")
        }
        let timescale = try self.timescale(element)
        let startNumber = try Int(DASHSegmentTemplate.number(element["startNumber"] ?? "1", "startNumber", url: url))
        let offset = try DASHSegmentTemplate.number(
            element["presentationTimeOffset"] ?? "0", "presentationTimeOffset", url: url)
        var initialization: InitializationSection?
        if let template = element["initialization"] {
            var values = self.values
            values.number = nil
            values.time = nil
            let expanded = try DASHSegmentTemplate.expand(template, values, url: url)
            initialization = InitializationSection(url: try ManifestURI.resolve(expanded, against: base, in: url))
        } else if let child = element.child("Initialization") {
            initialization = try self.initialization(child)
        }
        let (entries, firstIndex) = try timeline(element, timescale: timescale, offset: offset)
        var segments: [Segment] = []
        for (index, entry) in zip(firstIndex..., entries) {
            var values = self.values
            values.number = startNumber + index
            values.time = entry.time
            let expanded = try DASHSegmentTemplate.expand(media, values, url: url)
            let address = try ManifestURI.resolve(expanded, against: base, in: url)
            segments.append(
                Segment(
                    url: address, duration: Double(entry.duration) / timescale,
                    start: Double(entry.time - offset) / timescale, sequence: startNumber + index,
                    initialization: initialization,
                    programDate: live.map { $0.availabilityStartTime + $0.periodStart }.map {
                        $0 + Double(entry.time - offset) / timescale
                    }))
        }
        guard let live else { return playlist(segments, startNumber: startNumber) }
        let targetDuration = segments.map(\.duration).max() ?? Double(entries.first?.duration ?? 0) / timescale
        let isTimeline = element.child("SegmentTimeline") != nil
        return MediaPlaylist(
            kind: .live, targetDuration: targetDuration, mediaSequence: segments.first?.sequence ?? startNumber,
            segments: segments, hasEnd: false,
            reloadInterval: isTimeline ? live.minimumUpdatePeriod.flatMap { $0 > 0 ? $0 : nil } : nil,
            suggestedLiveOffset: live.suggestedPresentationDelay)
    }

    private mutating func list(_ element: XMLTreeElement) throws(MediaError) -> MediaPlaylist {
        let timescale = try self.timescale(element)
        let startNumber = try Int(DASHSegmentTemplate.number(element["startNumber"] ?? "1", "startNumber", url: url))
        let initialization = try element.child("Initialization").map { (child) throws(MediaError) in
            try self.initialization(child)
        }
        let urls = element.children("SegmentURL")
        var durations: [(start: Double, duration: Double)]
        if urls.count == 1, element["duration"] == nil, element.child("SegmentTimeline") == nil {
            guard let periodDuration else {
                throw DASHManifestParser.malformed(url, "a SegmentList without @duration and no period duration")
            }
            durations = [(0, periodDuration)]
        } else if element.child("SegmentTimeline") == nil {
            // One @duration each (the last may be shorter, which the list does not say).
            let duration = Double(try DASHSegmentTemplate.number(element["duration"], "@duration", url: url))
            guard duration > 0 else { throw DASHManifestParser.malformed(url, "@duration is not positive") }
            guard urls.count <= budget else { throw DASHManifestParser.malformed(url, "more than \(budget) segments") }
            budget -= urls.count
            durations = urls.indices.map { (Double($0) * duration / timescale, duration / timescale) }
        } else {
            durations = try timeline(element, timescale: timescale, offset: 0).entries.map {
                (Double($0.time) / timescale, Double($0.duration) / timescale)
            }
        }
        var segments: [Segment] = []
        for (index, segmentURL) in urls.prefix(durations.count).enumerated() {
            let address = try segmentURL["media"].map { (media) throws(MediaError) in
                try ManifestURI.resolve(media, against: base, in: url)
            }
            segments.append(
                Segment(
                    url: address ?? base, byteRange: try segmentURL["mediaRange"].map(range),
                    duration: durations[index].duration, start: durations[index].start, sequence: startNumber + index,
                    initialization: initialization))
        }
        return playlist(segments, startNumber: startNumber)
    }

    private func indexed(_ element: XMLTreeElement) throws(MediaError) -> MediaReference {
        guard let indexText = element["indexRange"] else {
            throw DASHManifestParser.malformed(url, "SegmentBase without @indexRange")
        }
        let index = try range(indexText)
        let initialization: ByteRange
        if let text = element.child("Initialization")?["range"] {
            initialization = try range(text)
        } else if index.offset > 0 {
            // No Initialization: the header is what comes before the index.
            initialization = ByteRange(offset: 0, length: index.offset)
        } else {
            throw DASHManifestParser.malformed(url, "SegmentBase without Initialization@range")
        }
        return .indexed(url: base, initialization: initialization, index: index)
    }

    /// The entries of `element`'s `SegmentTimeline`, or of its `@duration` over the period (of a live MPD: those
    /// available now), and the index in the period of the first (its number's offset from `startNumber`).
    private mutating func timeline(
        _ element: XMLTreeElement, timescale: Double, offset: Int64
    ) throws(MediaError) -> (entries: [DASHSegmentTemplate.Entry], firstIndex: Int) {
        if let live, element.child("SegmentTimeline") == nil {
            let duration = try DASHSegmentTemplate.number(element["duration"], "@duration", url: url)
            guard duration > 0 else { throw DASHManifestParser.malformed(url, "@duration is not positive") }
            let indices = live.segmentIndices(
                duration: duration, timescale: timescale, limit: min(budget, MediaPlaylist.liveSegmentLimit))
            budget -= indices.count
            let entries = indices.map {
                DASHSegmentTemplate.Entry(time: offset + Int64($0) * duration, duration: duration)
            }
            return (entries, indices.lowerBound)
        }
        // A live timeline's last `S@r="-1"` repeats up to the wall clock (the segment in progress included).
        let liveEnd = live.map { offset + Int64((max($0.elapsed, 0) * timescale).rounded(.down)) }
        let end = try (live == nil ? periodDuration : nil).map { (seconds) throws(MediaError) in
            let units = seconds * timescale
            guard units < 1e17 else { throw DASHManifestParser.malformed(url, "period too long for its timescale") }
            return offset + Int64(units.rounded(.up))
        }
        let entries: [DASHSegmentTemplate.Entry]
        if let timeline = element.child("SegmentTimeline") {
            entries = try DASHSegmentTemplate.timeline(timeline, end: end ?? liveEnd, limit: budget, url: url)
        } else {
            let duration = try DASHSegmentTemplate.number(element["duration"], "@duration", url: url)
            guard duration > 0 else { throw DASHManifestParser.malformed(url, "@duration is not positive") }
            guard let periodDuration else {
                throw DASHManifestParser.malformed(url, "@duration without a period or presentation duration")
            }
            // ceil(total / duration), forgiving the rounding of a total that is a whole number of segments.
            let count = (periodDuration * timescale / Double(duration) - 1e-9).rounded(.up)
            guard count <= Double(budget) else {
                throw DASHManifestParser.malformed(url, "more than \(budget) segments")
            }
            let units = Int64((periodDuration * timescale).rounded())
            entries = (0..<Int(max(count, 0))).map { index in
                // Every segment is `duration` long but the last, which ends with the period.
                let time = Int64(index) * duration
                return DASHSegmentTemplate.Entry(time: offset + time, duration: max(min(duration, units - time), 1))
            }
        }
        budget -= entries.count
        return (entries, 0)
    }

    private func timescale(_ element: XMLTreeElement) throws(MediaError) -> Double {
        let value = try DASHSegmentTemplate.number(element["timescale"] ?? "1", "@timescale", url: url)
        guard value > 0 else { throw DASHManifestParser.malformed(url, "@timescale is zero") }
        return Double(value)
    }

    /// An `Initialization` element: `@sourceURL` (else the base URL) and `@range`.
    private func initialization(_ element: XMLTreeElement) throws(MediaError) -> InitializationSection {
        let address = try element["sourceURL"].map { (source) throws(MediaError) in
            try ManifestURI.resolve(source, against: base, in: url)
        }
        return InitializationSection(url: address ?? base, byteRange: try element["range"].map(range))
    }

    /// A byte range `first-last` (both included).
    private func range(_ text: String) throws(MediaError) -> ByteRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw DASHManifestParser.malformed(url, "not a byte range: '\(text)'") }
        let first = try DASHSegmentTemplate.number(String(parts[0]), "range start", url: url)
        let last = try DASHSegmentTemplate.number(String(parts[1]), "range end", url: url)
        guard last >= first else { throw DASHManifestParser.malformed(url, "byte range ends before it starts") }
        return ByteRange(offset: first, length: last - first + 1)
    }

    private func playlist(_ segments: [Segment], startNumber: Int) -> MediaPlaylist {
        MediaPlaylist(
            kind: .vod, targetDuration: segments.map(\.duration).max() ?? 0, mediaSequence: startNumber,
            segments: segments, hasEnd: true)
    }
}
