import MediaCore
import PlaybackTesting
import Streaming
import Testing

/// Seeded random mutations of the sample manifests: each parser returns or throws a `MediaError`, never crashes,
/// whatever the bytes. A failure replays from its seed.
@Suite("Manifest parsers under mutation")
struct ManifestFuzzTests {
    static let samples = [ManifestSamples.master, ManifestSamples.media, ManifestSamples.mpd].map { Array($0.utf8) }
    /// Bytes that make mutations reach parsing paths rather than failing at the first character.
    static let tokens = [
        "\n", ",", "\"", "=", "@", "$", "<", ">", "/", "-1", "0x", "99999999999999999999", "#EXTINF:", "$Number$",
        "#EXT-X-BYTERANGE:5", "r=\"-1\"", "file:///", ":", "0",
    ].map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + random.below(4)) {
            switch random.below(6) {
            case 0 where !bytes.isEmpty:  // flip a byte
                bytes[random.below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 1 where !bytes.isEmpty:  // truncate
                bytes = Array(bytes.prefix(random.below(bytes.count)))
            case 2:  // swap two lines
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                if lines.count > 1 { lines.swapAt(random.below(lines.count), random.below(lines.count)) }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 3:  // drop or repeat a line
                var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let index = random.below(lines.count)
                if random.bool() { lines.remove(at: index) } else { lines.insert(lines[index], at: index) }
                bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
            case 4:  // insert a token
                bytes.insert(contentsOf: random.pick(tokens), at: random.below(bytes.count + 1))
            default:  // overwrite a byte with any value
                if !bytes.isEmpty { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
            }
        }
        return bytes
    }

    @Test("2000 mutations of the samples through the HLS and DASH parsers")
    func manifests() {
        var random = SplitMix64(seed: 0x27)
        var parsed = 0
        var refused = 0
        for _ in 0..<2000 {
            let bytes = Self.mutate(random.pick(Self.samples), &random)
            let text = String(decoding: bytes, as: UTF8.self)
            for url in [ManifestSamples.mediaURL, "/local/x.m3u8"] {
                do {
                    _ = try HLSPlaylistParser.parse(text, url: url)
                    parsed += 1
                } catch {
                    #expect(!error.reason.isEmpty)
                    refused += 1
                }
            }
            do {
                _ = try DASHManifestParser.parse(bytes, url: ManifestSamples.mpdURL)
                parsed += 1
            } catch {
                #expect(!error.reason.isEmpty)
                refused += 1
            }
        }
        // The mutations are neither all harmless nor all fatal: both outcomes are exercised.
        #expect(parsed > 200 && refused > 200, "parsed \(parsed), refused \(refused)")
    }

    @Test("2000 mutations of a sidx box")
    func segmentIndex() {
        var random = SplitMix64(seed: 0x51d)
        let box = SegmentIndexParserTests.sidx(
            version: 1, timescale: 1000, firstOffset: 0, references: [(0, 10, 20), (0, 30, 40), (0, 50, 60)])
        var parsed = 0
        for _ in 0..<2000 {
            var bytes = box
            for _ in 0..<(1 + random.below(3)) {
                if random.chance(20) {
                    bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
                } else if !bytes.isEmpty {
                    bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            if let segments = try? SegmentIndexParser.parse(bytes, boxEnd: Int64(random.below(1 << 40)), url: "u") {
                parsed += 1
                #expect(segments.allSatisfy { ($0.byteRange?.length ?? -1) >= 0 && $0.duration >= 0 })
            }
        }
        #expect(parsed > 100, "parsed \(parsed)")
    }
}
