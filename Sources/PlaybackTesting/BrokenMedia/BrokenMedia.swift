/// One broken file of the hostile-media corpus: how to make it from the clips in `Media/`, and what playing it must
/// do. The recipes are those of `scripts/make-broken-media.sh`, with the same generator (`BrokenMediaGenerator`) and
/// seeds, so `write(in:)` makes files byte-identical to the script's; change both together.
///
/// Used as test arguments (`@Test(arguments: BrokenMedia.all)`): its description is its file name.
public struct BrokenMedia: Sendable, CustomStringConvertible {
    /// What playing the file must end in. Kinds are `MediaError.Kind` raw values.
    public enum Expectation: Sendable, Equatable {
        /// The item fails, with an error of one of these kinds.
        case fails([String])
        /// The damage is inside the media: the item plays to its end, reporting what it skipped.
        case plays(decodeErrors: Bool)
        /// Random damage: the item either plays to its end or fails with one of these kinds.
        case playsOrFails([String])
    }

    /// How the file is made.
    public enum Recipe: Sendable {
        /// An empty file.
        case empty
        /// The first `permille`/1000 of the clip.
        case truncated(clip: String, permille: Int)
        /// One bit flipped per `bytesPerFlip` bytes, in the whole clip or only after its `mdat` box header.
        case flipped(clip: String, seed: UInt64, bytesPerFlip: Int, sampleDataOnly: Bool)
        /// 16 KiB of zeros from the KiB boundary at the middle of the clip.
        case zeroedMiddle(clip: String)
        /// `bytes` bytes from the generator seeded with `seed`.
        case noise(bytes: Int, seed: UInt64)
        /// Two lines of text.
        case text
        /// The clip with `count` bytes set to `byte` at `offset` bytes after the first occurrence of `box`.
        case patched(clip: String, box: String, offset: Int, bytes: [UInt8])
        /// The clip with every occurrence of `fourCC` replaced.
        case replacedFourCC(clip: String, fourCC: String, with: String)
        /// An unchanged copy of the clip.
        case copy(clip: String)
        /// A directory with the file's name.
        case directory
        /// A symbolic link to a file that does not exist.
        case danglingSymlink
        /// A copy of the clip with mode 000.
        case unreadable(clip: String)
    }

    /// The file's name (`trunc-a-050.mp4`), unique in the corpus.
    public let name: String
    /// How the file is made.
    public let recipe: Recipe
    /// What playing it must end in.
    public let expectation: Expectation

    /// A corpus entry.
    public init(name: String, recipe: Recipe, expectation: Expectation) {
        self.name = name
        self.recipe = recipe
        self.expectation = expectation
    }

    /// The file's name.
    public var description: String { name }

    /// Kinds a file damaged at random may legitimately fail with.
    public static let damageKinds = [
        "truncated", "notMedia", "noDecodableStream", "unsupportedCodec", "decodeFailed",
        "readFailed", "seekFailed",
    ]

    /// The corpus entry called `name`.
    public static func named(_ name: String) -> BrokenMedia? { all.first { $0.name == name } }
}
