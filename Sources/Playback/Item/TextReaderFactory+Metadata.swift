import MediaIO

extension TextReaderFactory {
    /// Opens a timed metadata reader at a time (nil: the start).
    typealias MetadataOpener = @Sendable (MediaTime?) throws(MediaError) -> any TimedMetadataSource

    /// The opener of the item's timed metadata reader: its timed ID3 or `mebx` track's, else, for a fragmented MP4
    /// whose `emsg` boxes a probe finds (``hasEventMessages(demuxer:primary:)``), its event messages'; nil when the
    /// item has none. Blocking (the probe reads): called while the item loads.
    func timedMetadata(demuxer: Demuxer, primary: (any ByteSource)?) -> MetadataOpener? {
        if let track = demuxer.tracks.first(where: TimedMetadataReader.reads) {
            let trackID = track.codec == "mebx" ? TimedMetadataReader.trackID(of: demuxer, stream: track.index) : nil
            return metadataReader(stream: track.index, mebxTrackID: trackID)
        }
        guard hasEventMessages(demuxer: demuxer, primary: primary) else { return nil }
        return eventMessageReader(origin: MediaTime(value: demuxer.startTime, timescale: 1_000_000))
    }

    /// Whether the item is an MP4 whose first fragment carries `emsg` boxes: a probe of its top-level boxes up to
    /// its first moof (``EventMessageReader/firstFragmentHasEvents(source:url:)``), through a source of its own
    /// (closed after, with any other `.metadata` source: none is open while the item loads). Only
    /// a local file or a segmented (HLS, DASH) stream is probed: a remote progressive file is not (its boxes are
    /// reached by range requests), nor anything but MP4.
    private func hasEventMessages(demuxer: Demuxer, primary: (any ByteSource)?) -> Bool {
        guard demuxer.formatName.hasPrefix("mov,"),
            primary == nil || primary is FileByteSource || primary is any SegmentedByteSource,
            let source = try? metadataSource()
        else { return false }
        defer { sources.close(of: .metadata) }
        return (try? EventMessageReader.firstFragmentHasEvents(source: source, url: url)) ?? false
    }

    /// A source of the item's bytes for a metadata reader: a `.metadata` source when the item has byte sources
    /// (recorded in ``sources``: the engine sees a read of it wait for the clock, and the item's leaving closes it),
    /// else the local file.
    private func metadataSource() throws(MediaError) -> any ByteSource {
        guard let made = try makeSource?(ByteSourceRequest(url: url, reader: .metadata)) else {
            return try FileByteSource(path: url)
        }
        sources.add(made, for: .metadata)
        return made
    }

    /// The reader of the item's timed metadata track `stream`, opened when called (on its ``MetadataPipeline``'s
    /// thread, again at a seek's target for a seek back before what it delivered or far ahead): a demuxer of its own
    /// over the item's media (through a `.metadata` source when the item has byte sources). A `mebx` track's key
    /// table is read from the moov first, through a source of its own.
    func metadataReader(stream: Int, mebxTrackID: Int? = nil) -> MetadataOpener {
        let factory = self
        return { (start: MediaTime?) throws(MediaError) -> any TimedMetadataSource in
            // A seek back reads the track again: the source of the reader before is done with.
            factory.sources.close(of: .metadata)
            var keyTable: MetadataKeyTable?
            if let mebxTrackID {
                let tableSource = try factory.metadataSource()
                defer { tableSource.close() }
                keyTable = try MetadataKeyTable.read(from: tableSource, url: factory.url, trackID: mebxTrackID)
            }
            let source = try factory.makeSource?(ByteSourceRequest(url: factory.url, reader: .metadata))
            if let source { factory.sources.add(source, for: .metadata) }
            let demuxer = try Demuxer(url: factory.url, source: source, decryptionKey: factory.decryptionKey)
            let reader = try TimedMetadataReader(demuxer: demuxer, stream: stream, keyTable: keyTable)
            // Opened for a seek: from a second before its target (a sample lies near its time among the packets).
            if let start, start > .zero { try reader.seek(toAtOrBefore: start - MediaTime(seconds: 1)) }
            return reader
        }
    }

    /// The reader of the item's `emsg` boxes, opened when called (as ``metadataReader(stream:mebxTrackID:)``),
    /// with times from `origin` (the media's start).
    private func eventMessageReader(origin: MediaTime) -> MetadataOpener {
        let factory = self
        return { (start: MediaTime?) throws(MediaError) -> any TimedMetadataSource in
            factory.sources.close(of: .metadata)
            let source = try factory.metadataSource()
            let reader = EventMessageReader(source: source, url: factory.url, origin: origin)
            if let start, start > .zero { try reader.seek(toAtOrBefore: start - MediaTime(seconds: 1)) }
            return reader
        }
    }
}
