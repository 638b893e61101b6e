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
        var upTo = Int64(HeaderExtent.probeBytes)
        var header: [UInt8] = []
        for _ in 0..<8 {
            remote.setFetchLimit(upTo)
            header = try readPrefix(upTo)
            switch HeaderExtent.of(header) {
            case .endsAt(let end) where end > upTo:
                upTo = end
                continue
            case .endsAt(let end):
                header = Array(header.prefix(Int(end)))
            case .needsBytes(let more) where Int64(header.count) == upTo:
                upTo = more
                continue
            case .needsBytes, .unknown:
                break
            }
            break
        }
        try source.seek(to: 0)
        guard request.time == nil,
            let needed = FirstPictures.firstFrameBytes(header: header, totalLength: source.size, url: url)
        else { return }
        remote.setFetchLimit(max(needed, Int64(header.count)))
    }

    /// The first `count` bytes of the source (fewer when it is shorter).
    private func readPrefix(_ count: Int64) throws(MediaError) -> [UInt8] {
        try source.seek(to: 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(count), alignment: 1)
        defer { buffer.deallocate() }
        var done = 0
        while done < buffer.count {
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            guard read > 0 else { break }
            done += read
        }
        return Array(buffer.prefix(done))
    }
}
