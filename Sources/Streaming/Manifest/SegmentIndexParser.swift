import MediaCore

/// Reads an ISO BMFF segment index box (`sidx`, ISO/IEC 14496-12 §8.16.3) into segments: what a DASH `SegmentBase`
/// points at with `@indexRange` (``MediaReference/indexed(url:initialization:index:)``).
public enum SegmentIndexParser {
    /// The segments the `sidx` box at the start of `bytes` lists, in order.
    ///
    /// - Parameters:
    ///   - bytes: the box, from its size field on (bytes after it are ignored).
    ///   - boxEnd: the offset in the file of the byte after the box; the first segment starts `first_offset`
    ///     bytes after it.
    ///   - url: the file the segments are ranges of.
    ///   - initialization: the header every segment needs, when known.
    /// - Returns: segments with their byte ranges, durations (`subsegment_duration` / `timescale`), starts (the
    ///   sum of the durations before them) and sequence numbers from 0.
    /// - Throws: `.malformedManifest` for a truncated or inconsistent box, or a reference to another `sidx`
    ///   (nested indexes are not supported).
    public static func parse(
        _ bytes: [UInt8], boxEnd: Int64, url: String, initialization: InitializationSection? = nil
    ) throws(MediaError) -> [Segment] {
        var reader = BoxReader(bytes: bytes, url: url)
        var size = Int64(try reader.uint32())
        guard try reader.uint32() == 0x7369_6478 else { throw malformed(url, "the box is not a sidx") }
        if size == 1 {
            let large = try reader.uint64()
            guard large <= UInt64(Int64.max) else { throw malformed(url, "sidx box size too large") }
            size = Int64(large)
        }
        guard size >= Int64(reader.position), size <= Int64(bytes.count) else {
            throw malformed(url, "sidx box of \(size) bytes in \(bytes.count)")
        }
        let version = try reader.uint8()
        reader.position += 3  // flags
        _ = try reader.uint32()  // reference_ID
        let timescale = try reader.uint32()
        guard timescale > 0 else { throw malformed(url, "sidx timescale is zero") }
        let firstOffset: UInt64
        switch version {
        case 0:
            _ = try reader.uint32()  // earliest_presentation_time
            firstOffset = UInt64(try reader.uint32())
        case 1:
            _ = try reader.uint64()
            firstOffset = try reader.uint64()
        default: throw malformed(url, "sidx version \(version) is not 0 or 1")
        }
        reader.position += 2  // reserved
        let count = Int(try reader.uint16())
        guard reader.position + 12 * count <= Int(size) else {
            throw malformed(url, "sidx lists \(count) references in a box of \(size) bytes")
        }
        guard boxEnd >= 0, firstOffset <= UInt64(Int64.max - boxEnd) else {
            throw malformed(url, "sidx first_offset too large")
        }
        var offset = boxEnd + Int64(firstOffset)
        var start = 0.0
        var segments: [Segment] = []
        segments.reserveCapacity(count)
        for index in 0..<count {
            let reference = try reader.uint32()
            let ticks = try reader.uint32()
            _ = try reader.uint32()  // starts_with_SAP, SAP_type, SAP_delta_time
            guard reference & 0x8000_0000 == 0 else {
                throw malformed(url, "nested sidx not supported (reference \(index) is to another sidx)")
            }
            let length = Int64(reference & 0x7fff_ffff)
            let duration = Double(ticks) / Double(timescale)
            segments.append(
                Segment(
                    url: url, byteRange: ByteRange(offset: offset, length: length), duration: duration, start: start,
                    sequence: index, initialization: initialization))
            let (next, overflow) = offset.addingReportingOverflow(length)
            guard !overflow else { throw malformed(url, "sidx ranges overflow") }
            offset = next
            start += duration
        }
        return segments
    }

    private static func malformed(_ url: String, _ reason: String) -> MediaError {
        MediaError(.malformedManifest, url: url, operation: .probe, reason: reason)
    }
}

/// Big-endian reads from a byte array that throw at its end.
private struct BoxReader {
    let bytes: [UInt8]
    let url: String
    var position = 0

    mutating func uint8() throws(MediaError) -> UInt8 {
        guard position >= 0, position < bytes.count else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "sidx box truncated")
        }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() throws(MediaError) -> UInt16 {
        UInt16(try uint8()) << 8 | UInt16(try uint8())
    }

    mutating func uint32() throws(MediaError) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }

    mutating func uint64() throws(MediaError) -> UInt64 {
        UInt64(try uint32()) << 32 | UInt64(try uint32())
    }
}
