import MediaIO
import PlaybackTesting
import Testing

@testable import Posters

/// Where an MP4's header ends, from its top-level boxes' sizes.
@Suite("Header extent from the boxes' sizes")
struct HeaderExtentTests {
    @Test("a moov-first MP4: the header ends where its moov does, and those bytes alone open")
    func moovFirst() throws {
        let bytes = try MediaFixtures.bytes("a.mp4")
        guard case .endsAt(let end) = HeaderExtent.of(Array(bytes.prefix(HeaderExtent.probeBytes))) else {
            Issue.record("no end found in a.mp4's first bytes")
            return
        }
        #expect(end > 0 && end < Int64(bytes.count))
        let alone = MemoryByteSource(Array(bytes.prefix(Int(end))), totalLength: Int64(bytes.count))
        #expect((try? Demuxer(url: MediaFixtures.path("a.mp4"), source: alone)) != nil)
    }

    @Test("a moov after the media data, another container, a box running to the end: unknown")
    func unknown() throws {
        for clip in ["b.mp4", "c.webm", "offset.ts"] {
            #expect(HeaderExtent.of(try MediaFixtures.bytes(clip)) == .unknown, "\(clip)")
        }
        let zeroSized: [UInt8] =
            [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0] + [0, 0, 0, 0] + Array("moov".utf8)
        #expect(HeaderExtent.of(zeroSized + [UInt8](repeating: 0, count: 8)) == .unknown)
    }

    @Test("boxes read so far end before the moov: the next box header is asked for; 64-bit sizes are read")
    func needsMore() {
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        #expect(HeaderExtent.of(ftyp) == .needsBytes(upTo: 32))
        let free: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0, 0, 0, 0, 0, 0, 0x10, 0]
        let moov: [UInt8] = [0, 0, 0x20, 0] + Array("moov".utf8) + [UInt8](repeating: 0, count: 8)
        #expect(
            HeaderExtent.of(ftyp + free + [UInt8](repeating: 0, count: 0x1000 - 16))
                == .needsBytes(upTo: 16 + 0x1000 + 16))
        let whole = ftyp + free + [UInt8](repeating: 0, count: 0x1000 - 16) + moov
        #expect(HeaderExtent.of(whole) == .endsAt(Int64(16 + 0x1000 + 0x2000)))
    }
}
