import MediaCore
import Streaming
import Testing

@Suite("sidx boxes")
struct SegmentIndexParserTests {
    /// A sidx box written field by field: `references` are (reference_type, referenced_size, subsegment_duration).
    static func sidx(
        version: UInt8, timescale: UInt32, firstOffset: UInt64, references: [(UInt32, UInt32, UInt32)]
    ) -> [UInt8] {
        var body: [UInt8] = [version, 0, 0, 0]
        body += be32(1) + be32(timescale)  // reference_ID, timescale
        if version == 0 {
            body += be32(0) + be32(UInt32(firstOffset))  // earliest_presentation_time, first_offset
        } else {
            body += be32(0) + be32(0) + be32(UInt32(firstOffset >> 32)) + be32(UInt32(firstOffset & 0xffff_ffff))
        }
        body += [0, 0, UInt8(references.count >> 8), UInt8(references.count & 0xff)]
        for (type, size, duration) in references {
            body += be32(type << 31 | size) + be32(duration) + be32(0x9000_0000)
        }
        return be32(UInt32(8 + body.count)) + Array("sidx".utf8) + body
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    @Test("version 0: ranges follow the box and first_offset, durations in the timescale")
    func version0() throws {
        let box = Self.sidx(
            version: 0, timescale: 90000, firstOffset: 16,
            references: [(0, 5000, 180_000), (0, 7000, 90000), (0, 100, 45000)])
        let initialization = InitializationSection(url: "https://x/v.mp4", byteRange: ByteRange(offset: 0, length: 800))
        let segments = try SegmentIndexParser.parse(
            box, boxEnd: 800 + Int64(box.count), url: "https://x/v.mp4", initialization: initialization)
        let first = 800 + Int64(box.count) + 16
        #expect(
            segments.map(\.byteRange) == [
                ByteRange(offset: first, length: 5000), ByteRange(offset: first + 5000, length: 7000),
                ByteRange(offset: first + 12000, length: 100),
            ])
        #expect(segments.map(\.duration) == [2, 1, 0.5])
        #expect(segments.map(\.start) == [0, 2, 3])
        #expect(segments.map(\.sequence) == [0, 1, 2])
        #expect(segments.allSatisfy { $0.url == "https://x/v.mp4" && $0.initialization == initialization })
    }

    @Test("version 1: 64-bit first_offset; bytes after the box are ignored")
    func version1() throws {
        let box = Self.sidx(version: 1, timescale: 1000, firstOffset: 1 << 33, references: [(0, 10, 1500)])
        let segments = try SegmentIndexParser.parse(box + [1, 2, 3], boxEnd: 100, url: "u")
        #expect(segments.map(\.byteRange) == [ByteRange(offset: 100 + (1 << 33), length: 10)])
        #expect(segments.map(\.duration) == [1.5])
    }

    @Test("a reference to another sidx, a truncated box, another box, a zero timescale: malformed")
    func errors() {
        func reason(_ bytes: [UInt8]) -> String? {
            do {
                _ = try SegmentIndexParser.parse(bytes, boxEnd: 0, url: "u")
                Issue.record("no error")
                return nil
            } catch {
                #expect(error.kind == .malformedManifest)
                return error.reason
            }
        }
        let nested = Self.sidx(version: 0, timescale: 1, firstOffset: 0, references: [(0, 1, 1), (1, 1, 1)])
        #expect(reason(nested) == "nested sidx not supported (reference 1 is to another sidx)")
        let whole = Self.sidx(version: 0, timescale: 1, firstOffset: 0, references: [(0, 1, 1), (0, 2, 2)])
        for length in [0, 4, 8, 20, whole.count - 1] {
            #expect(reason(Array(whole.prefix(length))) != nil)
        }
        var moof = whole
        moof[4...7] = ArraySlice("moof".utf8)
        #expect(reason(moof) == "the box is not a sidx")
        #expect(reason(Self.sidx(version: 0, timescale: 0, firstOffset: 0, references: [])) == "sidx timescale is zero")
        #expect(reason(Self.sidx(version: 2, timescale: 1, firstOffset: 0, references: [])) != nil)
    }
}
