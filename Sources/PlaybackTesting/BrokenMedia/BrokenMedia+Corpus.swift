import Foundation

extension BrokenMedia {
    /// The whole corpus, in the order of `scripts/make-broken-media.sh`.
    public static let all: [BrokenMedia] = {
        var corpus = [BrokenMedia(name: "empty.mp4", recipe: .empty, expectation: .fails(["emptyFile"]))]
        for clip in ["a", "b"] {
            for permille in [1, 10, 50, 100, 250, 500, 750, 900, 990, 999] {
                // a.mp4 has its index first: any cut leaves samples the index points to missing. b.mp4 has it last:
                // a cut in the last bytes may only lose metadata after the sample tables.
                corpus.append(
                    BrokenMedia(
                        name: "trunc-\(clip)-\(String(format: "%03d", permille)).mp4",
                        recipe: .truncated(clip: "\(clip).mp4", permille: permille),
                        expectation: clip == "a" ? .fails(["truncated"]) : .playsOrFails(["truncated"])))
            }
        }
        for (clip, seed, rates) in [("a", UInt64(1), [100_000, 10_000, 1000]), ("b", 2, [10_000, 1000, 100])] {
            for per in rates {
                corpus.append(
                    BrokenMedia(
                        name: "flip-\(clip)-\(per).mp4",
                        recipe: .flipped(clip: "\(clip).mp4", seed: seed, bytesPerFlip: per, sampleDataOnly: false),
                        expectation: .playsOrFails(damageKinds)))
            }
        }
        for per in [10_000, 1000] {
            corpus.append(
                BrokenMedia(
                    name: "flip-a-mdat-\(per).mp4",
                    recipe: .flipped(clip: "a.mp4", seed: 3, bytesPerFlip: per, sampleDataOnly: true),
                    expectation: .plays(decodeErrors: false)))
        }
        corpus += [
            BrokenMedia(
                name: "zeroed-a-middle.mp4", recipe: .zeroedMiddle(clip: "a.mp4"),
                expectation: .plays(decodeErrors: true)),
            BrokenMedia(name: "noise.mp4", recipe: .noise(bytes: 65_536, seed: 42), expectation: .fails(["notMedia"])),
            BrokenMedia(name: "notes.mp4", recipe: .text, expectation: .fails(["notMedia"])),
            BrokenMedia(
                name: "moov-renamed-b.mp4",
                recipe: .patched(clip: "b.mp4", box: "moov", offset: 0, bytes: Array("xxxx".utf8)),
                expectation: .fails(["truncated"])),
            // No track can be read from the index: FFmpeg opens the file with no streams at all.
            BrokenMedia(
                name: "moov-child-size-a.mp4",
                recipe: .patched(clip: "a.mp4", box: "moov", offset: 4, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
                expectation: .fails(["truncated", "noDecodableStream"])),
            BrokenMedia(
                name: "moov-stsz-a.mp4",
                recipe: .patched(clip: "a.mp4", box: "stsz", offset: 16, bytes: Array(repeating: 0xFF, count: 64)),
                expectation: .fails(["truncated"])),
            BrokenMedia(
                name: "unsupported-codec.mp4",
                recipe: .replacedFourCC(clip: "rotated.mp4", fourCC: "avc1", with: "qqv1"),
                expectation: .fails(["unsupportedCodec"])),
            BrokenMedia(
                name: "audio-only.m4a", recipe: .copy(clip: "tone.m4a"), expectation: .plays(decodeErrors: false)),
            BrokenMedia(name: "directory.mp4", recipe: .directory, expectation: .fails(["isDirectory"])),
            BrokenMedia(name: "dangling.mp4", recipe: .danglingSymlink, expectation: .fails(["fileNotFound"])),
            BrokenMedia(
                name: "unreadable.mp4", recipe: .unreadable(clip: "b.mp4"), expectation: .fails(["permissionDenied"])),
        ]
        return corpus
    }()
}
