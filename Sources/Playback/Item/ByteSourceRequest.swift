/// What a player asks an item's ``PlayerItem/ByteSourceMaker`` for: a source of the item's bytes for one reader.
///
/// An item with audio and video is read by two demuxers, each at its own pace: the first (which probes the media
/// and feeds the video decoder) and the audio decoder's own; a subtitle track of the container, while one is
/// selected, by a third.
public struct ByteSourceRequest: Sendable, Equatable {
    /// The readers of an item.
    public enum Reader: Sendable, Equatable {
        /// The reader that probes the media and feeds the video decoder (or the audio decoder, without video).
        case primary
        /// The audio decoder's own reader, for media with video.
        case audio
        /// The subtitle decoder's own reader, while a subtitle track of the container is selected (it reads the
        /// track through from the start), and the reader of a remote sidecar subtitle file.
        case text
        /// The timed metadata reader's own, for media with a timed ID3 track (it reads ahead of the playhead).
        case metadata
    }

    /// The item's URL.
    public var url: String
    /// Which reader the source is for.
    public var reader: Reader

    public init(url: String, reader: Reader) {
        self.url = url
        self.reader = reader
    }
}
