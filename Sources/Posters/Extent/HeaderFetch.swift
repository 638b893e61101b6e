import Loading
import MediaIO

/// An MP4's header fetched alone over the network: its first bytes, then up to where the sizes of its boxes say
/// the `moov` ends, each a byte range ending there (``HeaderExtent``). What a poster and a storyboard read before the
/// sample index tells them which samples they need.
enum HeaderFetch {
    /// The header's bytes (or the first bytes read when the container does not say where its header ends), read
    /// through `source` (`remote` itself or a wrapper of it) with `remote`'s fetches bounded to each step; leaves
    /// `source` at byte 0 and `remote`'s fetch limit at the header's end.
    static func read(_ remote: RemoteByteSource, through source: any ByteSource) throws(MediaError) -> [UInt8] {
        var upTo = Int64(HeaderExtent.probeBytes)
        var header: [UInt8] = []
        for _ in 0..<8 {
            remote.setFetchLimit(upTo)
            header = try readPrefix(upTo, of: source)
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
        return header
    }

    /// The first `count` bytes of `source` (fewer when it is shorter).
    private static func readPrefix(_ count: Int64, of source: any ByteSource) throws(MediaError) -> [UInt8] {
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
