import Loading
import MediaIO

/// Only the bytes a poster needs, over the network: its header, read first up to where the sizes of its boxes say it
/// ends, then the samples its frame needs, as the header's sample index says; each a byte range ending there, so no
/// transfer runs past the need to be cut off.
extension PosterMaker {
    /// Bounds `remote`'s fetches to the header, then (for the first frame) to the samples of the first pictures;
    /// reads past those bounds (a container whose index does not tell) fetch a read-ahead at a time. Reads through
    /// `source`, which counts the waits, and leaves it at byte 0.
    func limitFetches(of remote: RemoteByteSource) throws(MediaError) {
        // A picture (a server's thumbnail) has no header to fetch first: read from byte 0 without a bound, it comes
        // in one request, where the header's first 4 KB made a second one (a round trip more per poster).
        if PictureFileName.matches(url) { return }
        let header = try HeaderFetch.read(remote, through: source)
        guard request.time == nil,
            let needed = FirstPictures.firstFrameBytes(header: header, totalLength: source.size, url: url)
        else { return }
        remote.setFetchLimit(max(needed, Int64(header.count)))
    }
}
