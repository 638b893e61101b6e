import Foundation
import Testing

// Shared by PlaybackTests and PlayctlCLITests (Tests/PlayctlCLITests/Reliability/BrokenMediaCorpus.swift is a
// symbolic link to this file): it imports no project module.

/// One broken file of the hostile-media corpus: how to make it from the clips in `Media/`, and what playing it must
/// do. The recipes are those of `scripts/make-broken-media.sh`, with the same generator and seeds, so the files are
/// byte-identical to the script's.
struct BrokenMedia: Sendable, CustomTestStringConvertible {
    /// What playing the file must end in. Kinds are `MediaError.Kind` raw values.
    enum Expectation: Sendable, Equatable {
        /// The item fails, with an error of one of these kinds.
        case fails([String])
        /// The damage is inside the media: the item plays to its end, reporting what it skipped.
        case plays(decodeErrors: Bool)
        /// Random damage: the item either plays to its end or fails with one of these kinds.
        case playsOrFails([String])
    }

    /// How the file is made.
    enum Recipe: Sendable {
        case empty
        /// The first `permille`/1000 of the clip.
        case truncated(clip: String, permille: Int)
        /// One bit flipped per `bytesPerFlip` bytes, in the whole clip or only after its `mdat` box header.
        case flipped(clip: String, seed: UInt64, bytesPerFlip: Int, sampleDataOnly: Bool)
        /// 16 KiB of zeros from the KiB boundary at the middle of the clip.
        case zeroedMiddle(clip: String)
        case noise(bytes: Int, seed: UInt64)
        case text
        /// The clip with `count` bytes set to `byte` at `offset` bytes after the first occurrence of `box`.
        case patched(clip: String, box: String, offset: Int, bytes: [UInt8])
        /// The clip with every occurrence of `fourCC` replaced.
        case replacedFourCC(clip: String, fourCC: String, with: String)
        case copy(clip: String)
        case directory
        case danglingSymlink
        /// A copy of the clip with mode 000.
        case unreadable(clip: String)
    }

    let name: String
    let recipe: Recipe
    let expectation: Expectation

    var testDescription: String { name }

    /// Kinds a file damaged at random may legitimately fail with.
    static let damageKinds = ["truncated", "notMedia", "noDecodableStream", "unsupportedCodec", "decodeFailed",
                              "readFailed", "seekFailed"]

    /// The whole corpus, in the order of `scripts/make-broken-media.sh`.
    static let all: [BrokenMedia] = {
        var corpus = [BrokenMedia(name: "empty.mp4", recipe: .empty, expectation: .fails(["emptyFile"]))]
        for clip in ["a", "b"] {
            for permille in [1, 10, 50, 100, 250, 500, 750, 900, 990, 999] {
                // a.mp4 has its index first: any cut leaves samples the index points to missing. b.mp4 has it last:
                // a cut in the last bytes may only lose metadata after the sample tables.
                corpus.append(BrokenMedia(
                    name: "trunc-\(clip)-\(String(format: "%03d", permille)).mp4",
                    recipe: .truncated(clip: "\(clip).mp4", permille: permille),
                    expectation: clip == "a" ? .fails(["truncated"]) : .playsOrFails(["truncated"])))
            }
        }
        for (clip, seed, rates) in [("a", UInt64(1), [100_000, 10_000, 1000]), ("b", 2, [10_000, 1000, 100])] {
            for per in rates {
                corpus.append(BrokenMedia(
                    name: "flip-\(clip)-\(per).mp4",
                    recipe: .flipped(clip: "\(clip).mp4", seed: seed, bytesPerFlip: per, sampleDataOnly: false),
                    expectation: .playsOrFails(damageKinds)))
            }
        }
        for per in [10_000, 1000] {
            corpus.append(BrokenMedia(
                name: "flip-a-mdat-\(per).mp4",
                recipe: .flipped(clip: "a.mp4", seed: 3, bytesPerFlip: per, sampleDataOnly: true),
                expectation: .plays(decodeErrors: false)))
        }
        corpus += [
            BrokenMedia(name: "zeroed-a-middle.mp4", recipe: .zeroedMiddle(clip: "a.mp4"),
                        expectation: .plays(decodeErrors: true)),
            BrokenMedia(name: "noise.mp4", recipe: .noise(bytes: 65_536, seed: 42), expectation: .fails(["notMedia"])),
            BrokenMedia(name: "notes.mp4", recipe: .text, expectation: .fails(["notMedia"])),
            BrokenMedia(name: "moov-renamed-b.mp4",
                        recipe: .patched(clip: "b.mp4", box: "moov", offset: 0, bytes: Array("xxxx".utf8)),
                        expectation: .fails(["truncated"])),
            // No track can be read from the index: FFmpeg opens the file with no streams at all.
            BrokenMedia(name: "moov-child-size-a.mp4",
                        recipe: .patched(clip: "a.mp4", box: "moov", offset: 4, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
                        expectation: .fails(["truncated", "noDecodableStream"])),
            BrokenMedia(name: "moov-stsz-a.mp4",
                        recipe: .patched(clip: "a.mp4", box: "stsz", offset: 16, bytes: Array(repeating: 0xFF, count: 64)),
                        expectation: .fails(["truncated"])),
            BrokenMedia(name: "unsupported-codec.mp4",
                        recipe: .replacedFourCC(clip: "rotated.mp4", fourCC: "avc1", with: "qqv1"),
                        expectation: .fails(["unsupportedCodec"])),
            BrokenMedia(name: "audio-only.m4a", recipe: .copy(clip: "tone.m4a"), expectation: .plays(decodeErrors: false)),
            BrokenMedia(name: "directory.mp4", recipe: .directory, expectation: .fails(["isDirectory"])),
            BrokenMedia(name: "dangling.mp4", recipe: .danglingSymlink, expectation: .fails(["fileNotFound"])),
            BrokenMedia(name: "unreadable.mp4", recipe: .unreadable(clip: "b.mp4"), expectation: .fails(["permissionDenied"])),
        ]
        return corpus
    }()

    /// The corpus entry called `name`.
    static func named(_ name: String) -> BrokenMedia? { all.first { $0.name == name } }

    // MARK: Making the file

    static let mediaDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Media")

    /// Writes the file into `directory` and returns its path.
    func write(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let manager = FileManager.default
        switch recipe {
        case .empty: try Data().write(to: URL(fileURLWithPath: path))
        case .text: try Data("These are notes, not a video.\nSecond line.\n".utf8).write(to: URL(fileURLWithPath: path))
        case .noise(let count, let seed):
            var random = BrokenMediaGenerator(seed: seed)
            try Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }).write(to: URL(fileURLWithPath: path))
        case .directory: try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .danglingSymlink: try manager.createSymbolicLink(atPath: path, withDestinationPath: "does-not-exist.mp4")
        case .unreadable(let clip):
            try Data(try Self.clip(clip)).write(to: URL(fileURLWithPath: path))
            try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        default: try Data(try bytes()).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    /// The bytes of a file made from a clip.
    private func bytes() throws -> [UInt8] {
        switch recipe {
        case .truncated(let clip, let permille):
            let bytes = try Self.clip(clip)
            return Array(bytes.prefix(bytes.count * permille / 1000))
        case .flipped(let clip, let seed, let per, let sampleDataOnly):
            var bytes = try Self.clip(clip)
            let from = sampleDataOnly ? try Self.offset(of: "mdat", in: bytes) + 4 : 0
            Self.flipBits(&bytes, in: from..<bytes.count, onePer: per, seed: seed)
            return bytes
        case .zeroedMiddle(let clip):
            var bytes = try Self.clip(clip)
            let start = bytes.count / 2 / 1024 * 1024
            bytes.replaceSubrange(start..<start + 16_384, with: repeatElement(0, count: 16_384))
            return bytes
        case .patched(let clip, let box, let offset, let patch):
            var bytes = try Self.clip(clip)
            let start = try Self.offset(of: box, in: bytes) + offset
            bytes.replaceSubrange(start..<start + patch.count, with: patch)
            return bytes
        case .replacedFourCC(let clip, let from, let to):
            var bytes = try Self.clip(clip)
            let (old, new) = (Array(from.utf8), Array(to.utf8))
            var i = 0
            while i + old.count <= bytes.count {
                if bytes[i..<i + old.count].elementsEqual(old) {
                    bytes.replaceSubrange(i..<i + old.count, with: new)
                    i += old.count
                } else {
                    i += 1
                }
            }
            return bytes
        case .copy(let clip):
            return try Self.clip(clip)
        default:
            return []
        }
    }

    /// Flips one bit per `per` bytes of `range` (at least one), at offsets drawn from the generator.
    static func flipBits(_ bytes: inout [UInt8], in range: Range<Int>, onePer per: Int, seed: UInt64) {
        var random = BrokenMediaGenerator(seed: seed)
        for _ in 0..<max(range.count / per, 1) {
            let x = random.next()
            let offset = range.lowerBound + Int((x >> 33) & 0x7FFF_FFFF) % range.count
            bytes[offset] ^= 1 << UInt8((x >> 29) & 7)
        }
    }

    static func clip(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: mediaDirectory.appendingPathComponent(name)))
    }

    /// Where the four characters `box` first occur in `bytes`.
    static func offset(of box: String, in bytes: [UInt8]) throws -> Int {
        let tag = Array(box.utf8)
        guard let index = (0...(bytes.count - tag.count)).first(where: { bytes[$0..<$0 + tag.count].elementsEqual(tag) })
        else { throw CocoaError(.fileReadCorruptFile) }
        return index
    }

    /// A fresh temporary directory; the caller removes it with `removeDirectory(_:)`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("playctl-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a directory made by `temporaryDirectory()`, unreadable files included.
    static func removeDirectory(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The corpus generator: a 64-bit linear congruential generator (Knuth's MMIX constants), which bash arithmetic
/// reproduces exactly, so `scripts/make-broken-media.sh` makes the same files.
struct BrokenMediaGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next state.
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
