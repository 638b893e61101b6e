/// ID3v2 tags (ID3v2.2, 2.3 and 2.4, as id3.org specifies them): the frames of the tag a timed metadata sample
/// carries (HLS timed metadata: ID3 in MPEG-TS PES packets, FFmpeg's codec `timed_id3`).
///
/// Reads the header (version, flags, syncsafe size), undoes unsynchronisation (the whole tag's in 2.2 and 2.3, each
/// frame's in 2.4), skips an extended header, and reads frame headers (ids of four characters, three in 2.2; sizes
/// syncsafe in 2.4, plain in 2.2 and 2.3) and their text in encodings 0-3 (ISO-8859-1, UTF-16 with a byte order
/// mark, UTF-16BE, UTF-8). What each frame gives is described at ``ID3Frame``.
///
/// This is a parser of our own because FFmpeg's (libavformat's `ff_id3v2_*` functions, which read the tags of MP3
/// and other files into the container's metadata) is internal to libavformat, not part of its exported API; FFmpeg
/// hands timed ID3 packets over as they are (codec `timed_id3` has no decoder).
public enum ID3Tag {
    /// The frames of the ID3v2 tag at the start of `bytes`; nil when `bytes` does not start with a valid ID3v2
    /// header (`ID3`, version 2 to 4, a syncsafe size). A malformed frame stops the reading: the frames before it
    /// are returned; a tag cut short gives the frames that fit. Never traps, whatever `bytes` hold.
    public static func frames(in bytes: [UInt8]) -> [ID3Frame]? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return nil }
        let major = bytes[3]
        guard (2...4).contains(major), bytes[4] != 0xFF, let size = syncsafe(bytes, at: 6) else { return nil }
        return read(Array(bytes[10..<min(bytes.count, 10 + size)]), major: major, flags: bytes[5]).frames
    }

    /// The frames of a tag whose first five bytes (`ID3` and the two version bytes) are missing, as FFmpeg 5.1's
    /// MPEG-TS demuxer hands timed ID3 over: it skips five bytes at the start of every PES packet of stream type
    /// 0x15 (ISO/IEC 13818-1's metadata access unit header, which HLS's ID3 PES packets do not have; later FFmpeg
    /// skips it for SMPTE KLV only). `bytes` must then be the rest of one whole tag: flags, syncsafe size and
    /// exactly that many bytes (and a footer when its flag says so); nil otherwise. The lost version is found by
    /// reading the frames as ID3v2.4 and, when they do not read to the end that way, as ID3v2.3.
    static func frames(withoutIdentifier bytes: [UInt8]) -> [ID3Frame]? {
        guard bytes.count >= 5, bytes[0] & 0x0F == 0, let size = syncsafe(bytes, at: 1) else { return nil }
        let flags = bytes[0]
        guard bytes.count == 5 + size || (flags & 0x10 != 0 && bytes.count == 15 + size) else { return nil }
        let body = Array(bytes[5..<5 + size])
        let asVersion4 = read(body, major: 4, flags: flags)
        guard !asVersion4.complete, flags & 0x10 == 0 else { return asVersion4.frames }
        let asVersion3 = read(body, major: 3, flags: flags)
        return asVersion3.complete || asVersion3.frames.count > asVersion4.frames.count
            ? asVersion3.frames : asVersion4.frames
    }

    /// The frames of a tag's `stored` body (what follows its header), and whether they read to its end (or to its
    /// padding) without a malformed frame.
    static func read(_ stored: [UInt8], major: UInt8, flags: UInt8) -> (frames: [ID3Frame], complete: Bool) {
        // ID3v2.2's compression flag: the specification defines no compression scheme.
        if major == 2 && flags & 0x40 != 0 { return ([], false) }
        let unsynchronised = flags & 0x80 != 0
        let body = unsynchronised && major < 4 ? resynchronised(stored[...]) : stored
        var position = 0
        if major >= 3 && flags & 0x40 != 0 {
            guard let length = extendedHeaderLength(body, major: major) else { return ([], false) }
            position = length
        }
        let headerLength = major == 2 ? 6 : 10
        var frames: [ID3Frame] = []
        while position < body.count {
            // Padding: zeros to the end (a zero followed by more is damage, or the wrong version guessed).
            if body[position] == 0 { return (frames, body[position...].allSatisfy { $0 == 0 }) }
            guard body.count - position >= headerLength else { return (frames, false) }
            let idLength = major == 2 ? 3 : 4
            let idBytes = body[position..<position + idLength]
            guard idBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
                return (frames, false)
            }
            let size: Int? =
                switch major {
                case 2: Int(body[position + 3]) << 16 | Int(body[position + 4]) << 8 | Int(body[position + 5])
                case 3: plain32(body, at: position + 4)
                default: syncsafe(body, at: position + 4)
                }
            let start = position + headerLength
            guard let size, size <= body.count - start else { return (frames, false) }
            let frameFlags = major == 2 ? 0 : body[position + 9]
            let id = String(decoding: idBytes, as: UTF8.self)
            frames.append(
                frame(
                    id: id, stored: body[start..<start + size], major: major, formatFlags: frameFlags,
                    tagUnsynchronised: unsynchronised))
            position = start + size
        }
        return (frames, true)
    }

    /// A frame from its body as stored: the extra bytes its format flags announce taken off, its own
    /// unsynchronisation undone (ID3v2.4); a compressed or encrypted frame keeps its body as stored.
    private static func frame(
        id: String, stored: ArraySlice<UInt8>, major: UInt8, formatFlags: UInt8, tagUnsynchronised: Bool
    ) -> ID3Frame {
        var content = stored
        switch major {
        case 3:
            // %ijk00000: compression (4 bytes: the size decompressed), encryption (1: the method), grouping (1).
            if formatFlags & 0xC0 != 0 { return ID3Frame(id: id, data: Array(stored)) }
            if formatFlags & 0x20 != 0 { content = content.dropFirst(1) }
        case 4:
            // %0h00kmnp: grouping (1 byte), compression, encryption (1), unsynchronisation, data length (4).
            if formatFlags & 0x0C != 0 { return ID3Frame(id: id, data: Array(stored)) }
            let extra = (formatFlags & 0x40 != 0 ? 1 : 0) + (formatFlags & 0x01 != 0 ? 4 : 0)
            guard content.count >= extra else { return ID3Frame(id: id, data: Array(stored)) }
            content = content.dropFirst(extra)
            if formatFlags & 0x02 != 0 || tagUnsynchronised { content = resynchronised(content)[...] }
        default:
            break
        }
        return ID3FrameContent.frame(id: id, content: Array(content))
    }

    /// The extended header's length in `body`, or nil when it does not fit (ID3v2.3: a plain size that leaves out
    /// its own four bytes; ID3v2.4: a syncsafe size that counts them).
    private static func extendedHeaderLength(_ body: [UInt8], major: UInt8) -> Int? {
        if major == 3 {
            guard let size = plain32(body, at: 0), size <= body.count - 4 else { return nil }
            return 4 + size
        }
        guard let size = syncsafe(body, at: 0), size >= 6, size <= body.count else { return nil }
        return size
    }

    /// `bytes` with ID3's unsynchronisation undone: the 0x00 inserted after every 0xFF taken out.
    static func resynchronised(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var afterFF = false
        for byte in bytes {
            if !(afterFF && byte == 0) { out.append(byte) }
            afterFF = byte == 0xFF
        }
        return out
    }

    /// The 28-bit number of four syncsafe bytes (seven bits each) at `offset`; nil when they are not all there or
    /// one has its top bit set.
    static func syncsafe(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        let four = bytes[offset..<offset + 4]
        guard four.allSatisfy({ $0 < 0x80 }) else { return nil }
        return four.reduce(0) { $0 << 7 | Int($1) }
    }

    /// The big-endian 32-bit number at `offset`; nil when its bytes are not all there.
    static func plain32(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= 4 else { return nil }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
