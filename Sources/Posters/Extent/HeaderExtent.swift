/// Where an MP4's (ISO BMFF: MP4, MOV, M4A) header ends, read from the sizes of its top-level boxes in its first
/// bytes: what a poster fetches before the sample index tells it which samples its frame needs.
public enum HeaderExtent: Equatable, Sendable {
    /// The header (`moov`) ends at this byte; every box before it was read.
    case endsAt(Int64)
    /// The boxes read so far end here, before the `moov`: read up to this byte and ask again.
    case needsBytes(upTo: Int64)
    /// Not an MP4 (no `ftyp` first), or its `moov` comes after its media data (at the file's end), or a box runs to
    /// the end of the file: the first bytes do not tell where the header ends.
    case unknown

    /// The bytes to read first: the `ftyp` and the box headers after it in most files.
    public static let probeBytes = 4 << 10

    /// What `prefix`, the first bytes of a file, tells of its header's end.
    public static func of(_ prefix: [UInt8]) -> HeaderExtent {
        var offset = 0
        var first = true
        while true {
            // A box header: a 32-bit size and a type; size 1 means a 64-bit size follows, 0 "to the end".
            guard offset + 16 <= prefix.count else { return .needsBytes(upTo: Int64(offset + 16)) }
            let size32 = UInt64(bigEndian32(prefix, at: offset))
            let type = String(decoding: prefix[offset + 4..<offset + 8], as: UTF8.self)
            if first && type != "ftyp" { return .unknown }
            first = false
            let size: UInt64
            switch size32 {
            case 0: return .unknown
            case 1:
                size = UInt64(bigEndian32(prefix, at: offset + 8)) << 32 | UInt64(bigEndian32(prefix, at: offset + 12))
            default: size = size32
            }
            guard size >= 8, size < UInt64(Int64.max) - UInt64(offset) else { return .unknown }
            let end = Int64(offset) + Int64(size)
            if type == "moov" { return .endsAt(end) }
            if type == "mdat" { return .unknown }
            guard end <= Int64(Int.max / 2) else { return .unknown }
            offset = Int(end)
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
