import MediaIO

extension TextReaderFactory {
    /// The reader of the item's timed metadata track `stream`, opened when called (on its ``MetadataPipeline``'s
    /// thread, again at a seek's target for a seek back before what it delivered or far ahead): a demuxer of its own over the item's media (through a `.metadata` source when the item has byte
    /// sources).
    func metadataReader(stream: Int) -> @Sendable (MediaTime?) throws(MediaError) -> TimedMetadataReader {
        let factory = self
        return { (start: MediaTime?) throws(MediaError) -> TimedMetadataReader in
            // A seek back reads the track again: the source of the reader before is done with.
            factory.sources.close(of: .metadata)
            let source = try factory.makeSource?(ByteSourceRequest(url: factory.url, reader: .metadata))
            if let source { factory.sources.add(source, for: .metadata) }
            let demuxer = try Demuxer(url: factory.url, source: source, decryptionKey: factory.decryptionKey)
            let reader = try TimedMetadataReader(demuxer: demuxer, stream: stream)
            // Opened for a seek: from a second before its target (a sample lies near its time among the packets).
            if let start, start > .zero { try reader.seek(toAtOrBefore: start - MediaTime(seconds: 1)) }
            return reader
        }
    }
}
