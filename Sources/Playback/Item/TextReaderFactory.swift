import Loading
import MediaIO

/// Makes the reader of a selected subtitle option, to be called on its ``TextPipeline``'s thread: a demuxer of its
/// own over the item's media (a container track; through a `.text` source when the item has byte sources), or over
/// a sidecar file (an http(s) sidecar through the item's loader).
struct TextReaderFactory: Sendable {
    let url: String
    let makeSource: PlayerItem.ByteSourceMaker?
    let loading: RemoteLoading?
    let decryptionKey: String?
    let sources: OpenedSources

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
        }
    }
}
