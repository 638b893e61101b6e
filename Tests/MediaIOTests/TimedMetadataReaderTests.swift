import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Timed ID3 metadata in MPEG-TS (tracks/id3.ts), against ffprobe's packets")
struct TimedMetadataReaderTests {
    static let clip = TrackClips.path("id3.ts")

    /// What Media/make-id3.py wrote: the samples' times (from the start of the media) and frames. The PRIV frame's
    /// eight bytes are its sample's PTS (90 kHz), as Apple's transportStreamTimestamp is written.
    static let expected: [(seconds: Double, frames: [ID3Frame])] = [
        (0.5, [ID3Frame(id: "TXXX", description: "title", text: "Chapter 1")]),
        (
            1.5,
            [
                ID3Frame(id: "TIT2", text: "Second"),
                ID3Frame(id: "WXXX", description: "", text: "https://example.com/2"),
            ]
        ),
        (
            2.5,
            [
                ID3Frame(
                    id: "PRIV", description: "com.apple.streaming.transportStreamTimestamp",
                    data: [0, 0, 0, 0, 0, 0x05, 0x6F, 0xB8])
            ]
        ),
        (
            3.5,
            [
                ID3Frame(id: "TXXX", description: "size", text: "Größe 日本"),
                ID3Frame(id: "COMM", description: "", text: "café"),
                ID3Frame(id: "GEOB", description: "blob", data: (0..<300).map { UInt8($0 * 7 & 0xFF) }),
            ]
        ),
    ]

    /// ffprobe's packets of the file's data streams: pts (90 kHz ticks) and bytes, and the file's start time.
    static func ffprobePackets(_ path: String) throws -> (start: Double, packets: [(pts: Int, bytes: [UInt8])]) {
        let ffprobe = try #require(ProcessRunner.findExecutable("ffprobe"), "ffprobe is not in PATH")
        let result = try ProcessRunner.run(
            ffprobe,
            [
                "-v", "error", "-of", "json", "-show_packets", "-show_data", "-show_format", "-select_streams", "d",
                path,
            ],
            standardOutput: .capture, standardError: .capture, timeout: 60)
        try #require(result.succeeded && result.errorText.isEmpty, "ffprobe: \(result.errorText)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
        let format = try #require(json["format"] as? [String: Any])
        let start = try #require((format["start_time"] as? String).flatMap(Double.init))
        let packets = try #require(json["packets"] as? [[String: Any]])
        return (
            start,
            try packets.map { packet in
                (pts: try #require(packet["pts"] as? Int), bytes: try hexdump(try #require(packet["data"] as? String)))
            }
        )
    }

    /// The bytes of ffprobe's `-show_data` hexdump: lines of `OFFSET: ` then up to eight groups of four hex digits
    /// (39 columns), then the text.
    static func hexdump(_ text: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") {
            let afterOffset = try #require(line.firstRange(of: ": ").map { line[$0.upperBound...] })
            let digits = Array(afterOffset.prefix(39).filter { $0 != " " })
            for index in stride(from: 0, to: digits.count - 1, by: 2) {
                bytes.append(try #require(UInt8(String(digits[index...index + 1]), radix: 16)))
            }
        }
        return bytes
    }

    static func samples(_ reader: TimedMetadataReader) throws -> [TimedMetadataSample] {
        var samples: [TimedMetadataSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return samples
    }

    @Test("the samples: ffprobe's times (its start time subtracted) and bytes, and the frames make-id3.py wrote")
    func samplesMatchFFprobe() throws {
        let demuxer = try Demuxer(url: Self.clip)
        let reader = try TimedMetadataReader(demuxer: demuxer)
        #expect(reader.track.codec == "timed_id3" && reader.track.kind == .other)
        #expect(demuxer.tracks.filter(TimedMetadataReader.reads).map(\.index) == [reader.track.index])
        let samples = try Self.samples(reader)
        #expect(reader.damagedPackets == 0)
        let oracle = try Self.ffprobePackets(Self.clip)
        try #require(samples.count == oracle.packets.count && samples.count == Self.expected.count)
        for (sample, (packet, expected)) in zip(samples, zip(oracle.packets, Self.expected)) {
            #expect(abs(sample.time.seconds - (Double(packet.pts) / 90000 - oracle.start)) < 2e-6, "\(sample.time)")
            #expect(sample.time == MediaTime(seconds: expected.seconds, preferredTimescale: 90000))
            #expect(sample.duration == nil)
            #expect(sample.bytes == packet.bytes)
            #expect(sample.frames == expected.frames)
        }
        // The PRIV frame holds its own sample's PTS, as ffprobe reads it.
        let pts = oracle.packets[2].pts
        #expect(samples[2].frames.first?.data == (0..<8).reversed().map { UInt8(truncatingIfNeeded: pts >> ($0 * 8)) })
    }

    @Test("a packet that is not an ID3 tag is skipped and counted")
    func damagedPacket() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.clip)))
        // The first tag's size (ID3v2.4, 26 bytes) gets a byte that no syncsafe number has.
        let header: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 26]
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: header) })
        bytes[at + 9] = 0xFF
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("damaged.ts").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try TimedMetadataReader(demuxer: Demuxer(url: path))
        let samples = try Self.samples(reader)
        #expect(reader.damagedPackets == 1)
        #expect(samples.map(\.frames) == Self.expected.dropFirst().map(\.frames))
    }

    @Test("no timed ID3 track, or a stream that is not one: a typed error naming the file")
    func noTrack() throws {
        for (path, stream) in [(MediaFixtures.path("offset.ts"), nil), (Self.clip, 0), (Self.clip, 9)]
            as [(String, Int?)]
        {
            let error = #expect(throws: MediaError.self) {
                try TimedMetadataReader(demuxer: Demuxer(url: path), stream: stream)
            }
            #expect(error?.kind == .noDecodableStream, "\(String(describing: error))")
            #expect(error?.url == path)
        }
    }
}
