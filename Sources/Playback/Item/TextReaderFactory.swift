import Loading
import MediaIO
import Streaming

/// Makes the reader of a selected subtitle option, to be called on its ``TextPipeline``'s thread: a demuxer of its
/// own over the item's media (a container track; through a `.text` source when the item has byte sources), or over
/// a sidecar file (an http(s) sidecar through the item's loader); or the pipeline of an HLS subtitle rendition.
struct TextReaderFactory: Sendable {
    let url: String
    let makeSource: PlayerItem.ByteSourceMaker?
    let loading: RemoteLoading?
    let decryptionKey: String?
    let sources: OpenedSources
    /// The subtitle renditions of the item's HLS presentation (through its stream session's loader).
    var renditions: [SubtitleRenditionReader] = []
    /// Where the media's time zero lies on the presentation's timeline (a rendition's cues are mapped against it).
    var presentationStart = MediaTime.zero

    /// The options of ``renditions``, in playlist order.
    var renditionOptions: [MediaSelectionOption] {
        renditions.map { reader in
            let rendition = reader.rendition
            return MediaSelectionOption(
                source: .rendition(url: reader.playlistURL), characteristic: .legible,
                languageCode: rendition.language, title: rendition.name, codec: "webvtt",
                isDefault: rendition.isDefault, isForced: rendition.isForced, isAutoselect: rendition.isAutoselect)
        }
    }

    /// The pipeline that plays `option` (not started).
    func pipeline(for option: MediaSelectionOption, onChange: @escaping @Sendable () -> Void) -> any LegiblePipeline {
        guard case .rendition(let playlistURL) = option.source,
            let reader = renditions.first(where: { $0.playlistURL == playlistURL })
        else { return TextPipeline(option: option, open: reader(for: option), onChange: onChange) }
        let sources = self.sources
        return SubtitleRenditionPipeline(
            option: option, presentationStart: presentationStart,
            playlist: { () throws(MediaError) in try reader.playlist { sources.add($0, for: .text) } },
            fetch: { (segment: Segment) throws(MediaError) -> [UInt8] in
                // The fetch before is done: its source goes (the engine asks the one under way whether it waits
                // for a manual clock).
                sources.close(of: .text)
                return try reader.bytes(of: segment) { sources.add($0, for: .text) }
            }, onChange: onChange)
    }

    /// The reader of `option`, opened when called.
    func reader(for option: MediaSelectionOption) -> @Sendable () throws(MediaError) -> TextTrackReader {
        let factory = self
        switch option.source {
        case .track(let index):
            return { () throws(MediaError) -> TextTrackReader in
                let source = try factory.makeSource?(ByteSourceRequest(url: factory.url, reader: .text))
                if let source { factory.sources.add(source, for: .text) }
                let demuxer = try Demuxer(url: factory.url, source: source, decryptionKey: factory.decryptionKey)
                return try TextTrackReader(demuxer: demuxer, stream: index)
            }
        case .sidecar(let sidecar):
            return { () throws(MediaError) -> TextTrackReader in
                var source: (any ByteSource)?
                if RemoteLoading.isRemote(sidecar) {
                    let made = (factory.loading ?? .shared).source(sidecar)
                    factory.sources.add(made, for: .text)
                    source = made
                }
                return try TextTrackReader(demuxer: Demuxer(subtitlesAt: sidecar, source: source))
            }
        case .rendition(let playlistURL):
            return { () throws(MediaError) -> TextTrackReader in
                throw MediaError(
                    .invalidArgument, url: playlistURL, operation: .open,
                    reason: "a subtitle rendition of another presentation")
            }
        }
    }
}
