import Foundation
import MediaIO
import PlaybackTesting
import Testing

/// MP4 timed metadata that FFmpeg 5.1 does not deliver, read from the boxes: `emsg` boxes of a fragmented MP4
/// (tracks/emsg.mp4) and a QuickTime timed metadata track with its key table (tracks/mebx.mp4), both written by
/// Media/make-mp4meta.py; and the same files damaged (sizes that lie, truncation), never a crash.
@Suite("MP4 timed metadata: emsg boxes and mebx tracks")
struct MP4TimedMetadataTests {
    static let emsg = TrackClips.path("emsg.mp4")
    static let mebx = TrackClips.path("mebx.mp4")

    static func samples(_ reader: any TimedMetadataSource) throws -> [TimedMetadataSample] {
        var samples: [TimedMetadataSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return samples
    }

    static func eventSamples(_ path: String) throws -> (samples: [TimedMetadataSample], damaged: Int) {
        let reader = EventMessageReader(source: try FileByteSource(path: path), url: path)
        return (try samples(reader), reader.damagedBoxes)
    }

    static func mebxSamples(_ path: String) throws -> (samples: [TimedMetadataSample], damaged: Int) {
        try #require(try mebxSamplesIfAny(path))
    }

    /// The samples of the file's mebx track, nil when it has none (FFmpeg does not see one in a damaged file).
    static func mebxSamplesIfAny(_ path: String) throws -> (samples: [TimedMetadataSample], damaged: Int)? {
        let demuxer = try Demuxer(url: path)
        guard let track = demuxer.tracks.first(where: TimedMetadataReader.reads) else { return nil }
        let table = try MetadataKeyTable.read(
            from: try FileByteSource(path: path), url: path,
            trackID: TimedMetadataReader.trackID(of: demuxer, stream: track.index))
        let reader = try TimedMetadataReader(demuxer: demuxer, stream: track.index, keyTable: table)
        return (try samples(reader), reader.damagedPackets)
    }

    @Test("emsg: v1 and v0 boxes at their exact times (v0 from its segment's tfdt), ID3 frames and opaque events")
    func eventMessages() throws {
        let (samples, damaged) = try Self.eventSamples(Self.emsg)
        #expect(damaged == 0)
        try #require(samples.count == 4)
        #expect(samples.map(\.time) == [0.5, 1.5, 2.5, 3.5].map { MediaTime(seconds: $0, preferredTimescale: 1000) })
        #expect(samples.map(\.duration) == [MediaTime.zero, nil, MediaTime(seconds: 2), MediaTime(seconds: 0.25)])
        #expect(samples.map { $0.event?.version } == [1, 0, 1, 0])
        #expect(samples.map { $0.event?.id } == [1, 2, 7, 9])
        #expect(
            samples.map { $0.event?.schemeIdURI } == [
                EventMessage.id3Scheme, EventMessage.id3Scheme, "urn:scte:scte35:2013:bin", "urn:example:chapter",
            ])
        #expect(samples.map { $0.event?.value } == ["", "", "1", "4"])
        #expect(samples[0].frames == [ID3Frame(id: "TXXX", description: "title", text: "Chapter 1")])
        #expect(samples[1].frames == [ID3Frame(id: "TIT2", text: "Second")])
        #expect(samples[2].frames.isEmpty && samples[2].bytes == [0xFC, 0x30, 0x11, 0x00, 0xFF, 0x00])
        #expect(samples[3].frames.isEmpty && samples[3].bytes == Array("chapter four".utf8))
        #expect(
            try EventMessageReader.firstFragmentHasEvents(source: FileByteSource(path: Self.emsg), url: Self.emsg))
        for plain in [TrackClips.path("tracks.mp4"), Self.mebx, MediaFixtures.path("a.mp4")] {
            #expect(try !EventMessageReader.firstFragmentHasEvents(source: FileByteSource(path: plain), url: plain))
        }
    }

    @Test("emsg: a seek to a segment reads from the start again (a file), its samples as before")
    func eventSeek() throws {
        let reader = EventMessageReader(source: try FileByteSource(path: Self.emsg), url: Self.emsg)
        #expect(try reader.next(until: .zero) == .sample(try #require(try Self.eventSamples(Self.emsg).samples.first)))
        // The next box (v0) waits for its fragment's start (1 s): read, then the reader is past the limit.
        #expect(try reader.next(until: .zero) == .sample(try #require(try Self.eventSamples(Self.emsg).samples[1])))
        #expect(try reader.next(until: .zero) == .reachedLimit)
        #expect(reader.position == MediaTime(seconds: 1))
        try reader.seek(toAtOrBefore: MediaTime(seconds: 2))
        #expect(try Self.samples(reader).count == 4)
    }

    @Test("mebx: the key table from the moov, each sample's items with their keys and typed values")
    func boxedMetadata() throws {
        let demuxer = try Demuxer(url: Self.mebx)
        let track = try #require(demuxer.tracks.first(where: TimedMetadataReader.reads))
        #expect(track.codec == "mebx" && track.kind == .other)
        let (samples, damaged) = try Self.mebxSamples(Self.mebx)
        #expect(damaged == 0)
        try #require(samples.count == 3, "the empty sample (2.5 s) gives none")
        #expect(samples.map(\.time) == [0, 1, 3].map { MediaTime(seconds: $0) })
        #expect(samples.map(\.duration) == [1, 1.5, 1].map { MediaTime(seconds: $0) })
        let location = "mdta/com.apple.quicktime.location.ISO6709"
        #expect(
            samples.map { $0.items.map(\.identifier) } == [
                [location], ["mdta/com.example.score", "mdta/com.example.speed"], [location, "mdta/com.example.blob"],
            ])
        #expect(
            samples.map { $0.items.map(\.value) } == [
                [.string("+48.8584+002.2945/")], [.integer(42), .float(1.5)],
                [.string("+35.6586+139.7454/"), .data([0, 1, 2, 0xFF])],
            ])
        #expect(samples[1].items.map(\.dataType) == [21, 23])
        #expect(samples.allSatisfy { $0.frames.isEmpty && $0.event == nil })
    }

    @Test("a mebx track without its key table: a typed error naming the file")
    func mebxWithoutTable() throws {
        let error = #expect(throws: MediaError.self) { try TimedMetadataReader(demuxer: Demuxer(url: Self.mebx)) }
        #expect(error?.kind == .noDecodableStream && error?.url == Self.mebx)
    }

    /// `bytes` written to a temporary file, given to `body`.
    static func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("damaged.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    /// Where the top-level boxes of `type` start.
    static func offsets(of type: String, in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        var at = 0
        while at + 8 <= bytes.count {
            let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[at + 4..<at + 8].elementsEqual(type.utf8) { found.append(at) }
            guard size >= 8 else { break }
            at += size
        }
        return found
    }

    /// Where `type` first appears (a box's type inside others).
    static func offset(of type: String, in bytes: [UInt8]) -> Int? {
        (4..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(type.utf8) }.map { $0 - 4 }
    }

    static func setSize(_ bytes: inout [UInt8], at offset: Int, _ size: UInt32) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32(i))) }
    }

    @Test("emsg boxes that lie: fields past the box's end are skipped and counted; a size below its header is an error")
    func damagedEvents() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.emsg)))
        let boxes = Self.offsets(of: "emsg", in: original)
        try #require(boxes.count == 4)
        // The first box cut to its header and version (its strings and times lost): skipped, the rest read.
        var bytes = original
        bytes.replaceSubrange(boxes[0]..<boxes[0] + 12, with: [0, 0, 0, 12] + Array("emsg".utf8) + [1, 0, 0, 0])
        let shrunk = Int(original[boxes[0] + 3]) | Int(original[boxes[0] + 2]) << 8
        bytes.removeSubrange(boxes[0] + 12..<boxes[0] + shrunk)
        let (samples, damaged) = try Self.withFile(bytes) { try Self.eventSamples($0) }
        #expect(damaged == 1 && samples.map { $0.event?.id } == [2, 7, 9])
        // A string without its terminator (the v0 box's scheme runs to the end): skipped.
        bytes = original
        let v0 = boxes[1]
        let v0Size = Int(original[v0 + 2]) << 8 | Int(original[v0 + 3])
        for i in v0 + 12..<v0 + v0Size { bytes[i] = 0x41 }
        #expect(try Self.withFile(bytes) { try Self.eventSamples($0) }.damaged == 1)
        // A v1 presentation_time of 2^64 - 1 ticks (far past any media): skipped, no overflow.
        bytes = original
        for i in boxes[0] + 16..<boxes[0] + 24 { bytes[i] = 0xFF }
        let (late, lateDamaged) = try Self.withFile(bytes) { try Self.eventSamples($0) }
        #expect(lateDamaged == 1 && late.map { $0.event?.id } == [2, 7, 9])
        // A size smaller than a header: a typed error naming the file.
        bytes = original
        Self.setSize(&bytes, at: boxes[2], 3)
        try Self.withFile(bytes) { path in
            let error = #expect(throws: MediaError.self) { try Self.eventSamples(path) }
            #expect(error?.kind == .decodeFailed && error?.url == path, "\(String(describing: error))")
        }
        // A size past the end of the file, and the file cut in the middle of a box: the end, no crash.
        bytes = original
        Self.setSize(&bytes, at: boxes[3], 0x7FFF_FFFF)
        #expect(try Self.withFile(bytes) { try Self.eventSamples($0) }.samples.count == 3)
        for cut in stride(from: 0, to: original.count, by: 97) {
            _ = try? Self.withFile(Array(original.prefix(cut))) { try Self.eventSamples($0) }
        }
    }

    @Test("version 0 boxes waiting for their moof are bounded in bytes: those past the bound are dropped, counted")
    func pendingBound() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.emsg)))
        let first = try #require(Self.offsets(of: "emsg", in: original).first)
        // Ten version 0 boxes of 100-byte messages before the first fragment; room for three.
        let body: [UInt8] = [0, 0, 0, 0] + Array("urn:x\0\0".utf8) + [0, 0, 0x03, 0xE8, 0, 0, 0, 10, 0, 0, 0, 0]
        let message = [UInt8](repeating: 7, count: 100)
        var box = body + [0, 0, 0, 0] + message
        box = [0, 0, 0, UInt8(box.count + 8)] + Array("emsg".utf8) + box
        let bytes = Array(original[..<first]) + Array((0..<10).map { _ in box }.joined()) + original[first...]
        try Self.withFile(bytes) { path in
            let reader = EventMessageReader(source: try FileByteSource(path: path), url: path, pendingByteLimit: 350)
            var held: [Int] = []
            var samples: [TimedMetadataSample] = []
            while let sample = try reader.next() {
                held.append(reader.heldBytes)
                samples.append(sample)
            }
            #expect(reader.damagedBoxes == 7)
            #expect(held.allSatisfy { $0 <= 350 })
            #expect(
                samples.filter { $0.event?.schemeIdURI == "urn:x" }.map(\.time)
                    == Array(repeating: .zero + MediaTime(value: 10, timescale: 1000), count: 3))
            #expect(samples.count == 7)
        }
    }

    @Test("a mebx key table and samples that lie: unknown keys and bad sizes skipped, never read out of bounds")
    func damagedBoxedMetadata() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.mebx)))
        // The keys box claims more than its sample entry holds: no key is found, the reader has no table.
        var bytes = original
        let keys = try #require(Self.offset(of: "keys", in: original))
        Self.setSize(&bytes, at: keys, 0xFFFF)
        try Self.withFile(bytes) { path in
            let demuxer = try Demuxer(url: path)
            let track = try #require(demuxer.tracks.first(where: TimedMetadataReader.reads))
            let table = try MetadataKeyTable.read(
                from: FileByteSource(path: path), url: path,
                trackID: TimedMetadataReader.trackID(of: demuxer, stream: track.index))
            #expect(table == nil)
        }
        // An item box whose size runs past its sample: that sample's items after it are lost, counted if none.
        let table = try #require(
            try MetadataKeyTable.read(from: FileByteSource(path: Self.mebx), url: Self.mebx, trackID: 2))
        #expect(table.count == 4)
        var item: [UInt8] = [0, 0, 0, 30, 0, 0, 0, 1, 0, 0, 0, 18] + Array("data".utf8) + [0, 0, 0, 1, 0, 0, 0, 0]
        item += Array("ab".utf8)
        #expect(table.items(in: item).isEmpty, "the item box says 30 bytes, 26 are there")
        item[3] = 26
        #expect(table.items(in: item).map(\.value) == [.string("ab")])
        item[7] = 9
        #expect(table.items(in: item).isEmpty, "key 9 is not in the table")
        item[7] = 1
        item[11] = 12
        #expect(table.items(in: item).isEmpty, "a data atom smaller than its type and locale")
        // Every cut of the file: no crash.
        for cut in stride(from: 0, to: original.count, by: 211) {
            _ = try? Self.withFile(Array(original.prefix(cut))) { try Self.mebxSamplesIfAny($0) }
        }
    }
}
