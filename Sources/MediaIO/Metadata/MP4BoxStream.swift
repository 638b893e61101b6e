/// The top-level boxes of an MP4 byte stream (a file, or an fMP4 rendition's initialization section and segments
/// one after another, as a segmented stream presents them), read from a `ByteSource` one after another: a box's
/// header, then its body read (when it is small enough) or skipped by a seek past it.
final class MP4BoxStream {
    /// A top-level box's header: its type, where its body starts, how long the body is (nil: to the end).
    struct Header {
        var type: UInt32
        var bodyOffset: Int64
        var bodyLength: Int64?
    }

    let source: any ByteSource
    let url: String
    /// Where the next header starts.
    private(set) var offset: Int64

    /// Reads `source` from byte `offset` (where its reader is now).
    init(source: any ByteSource, url: String, offset: Int64 = 0) {
        self.source = source
        self.url = url
        self.offset = offset
    }

    /// The next box's header, the stream moved past it; nil at the end (or at bytes too few for a header).
    /// - Throws: a read error of the source; `.decodeFailed` for a size smaller than its header.
    func next() throws(MediaError) -> Header? {
        let start = offset
        let head = try read(8)
        guard head.count == 8 else { return nil }
        var fields = MP4Fields(head[...])
        let size32 = fields.uint32() ?? 0
        let type = fields.uint32() ?? 0
        var header: Int64 = 8
        var size = Int64(size32)
        if size32 == 1 {
            let large = try read(8)
            var largeFields = MP4Fields(large[...])
            guard let value = largeFields.uint(8), value <= UInt64(Int64.max) else { return nil }
            size = Int64(value)
            header = 16
        }
        guard size32 == 0 || size >= header else {
            throw MediaError(
                .decodeFailed, url: url, operation: .read,
                reason: "MP4 box '\(MP4Box.name(type))' at byte \(start) gives size \(size), less than its header")
        }
        // `read` moved `offset` past the header.
        return Header(type: type, bodyOffset: start + header, bodyLength: size32 == 0 ? nil : size - header)
    }

    /// The body of `header` (just read by ``next()``); nil, and the body skipped, when it is longer than `limit`.
    func body(of header: Header, limit: Int) throws(MediaError) -> [UInt8]? {
        guard let length = header.bodyLength, length <= Int64(limit) else {
            try skip(header)
            return nil
        }
        let body = try read(Int(length))
        return body.count == Int(length) ? body : nil
    }

    /// Moves past the body of `header` (just read by ``next()``). A body to the end ends the stream.
    func skip(_ header: Header) throws(MediaError) {
        guard let length = header.bodyLength else {
            offset = Int64.max
            return
        }
        offset = header.bodyOffset + length
        try source.seek(to: offset)
    }

    /// Up to `count` bytes (fewer at the end).
    private func read(_ count: Int) throws(MediaError) -> [UInt8] {
        guard offset != Int64.max else { return [] }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<count]))
            if n <= 0 { break }
            filled += n
        }
        offset += Int64(filled)
        return Array(buffer.prefix(filled))
    }
}

extension MetadataKeyTable {
    /// The moov's largest size read (larger: no table).
    static let moovLimit = 64 << 20

    /// The key table of track `trackID` (the MP4 track id: FFmpeg's `AVStream.id`) of the MP4 file in `source`:
    /// its top-level boxes are walked (a seek past each) to the moov, which is read. Nil when the track has none.
    /// - Throws: a read error of the source, a box of impossible size before the moov.
    public static func read(
        from source: any ByteSource, url: String, trackID: Int
    ) throws(MediaError)
        -> MetadataKeyTable?
    {
        try source.seek(to: 0)
        let stream = MP4BoxStream(source: source, url: url)
        while let header = try stream.next() {
            guard header.type == MP4Box.type("moov") else {
                try stream.skip(header)
                continue
            }
            guard let body = try stream.body(of: header, limit: moovLimit) else { return nil }
            return table(moov: MP4Box(type: header.type, body: body[...]), trackID: UInt32(truncatingIfNeeded: trackID))
        }
        return nil
    }
}
