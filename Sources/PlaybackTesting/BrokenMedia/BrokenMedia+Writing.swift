import Foundation

extension BrokenMedia {
    /// Writes the file into `directory` (made with `TemporaryDirectory.make()`, say) and returns its path.
    /// - Throws: when a clip cannot be read, its box is missing, or the file cannot be written.
    public func write(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let manager = FileManager.default
        switch recipe {
        case .empty: try Data().write(to: URL(fileURLWithPath: path))
        case .text: try Data("These are notes, not a video.\nSecond line.\n".utf8).write(to: URL(fileURLWithPath: path))
        case .noise(let count, let seed):
            var random = BrokenMediaGenerator(seed: seed)
            try Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }).write(
                to: URL(fileURLWithPath: path))
        case .directory: try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .danglingSymlink: try manager.createSymbolicLink(atPath: path, withDestinationPath: "does-not-exist.mp4")
        case .unreadable(let clip):
            try Data(try MediaFixtures.bytes(clip)).write(to: URL(fileURLWithPath: path))
            try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        default: try Data(try bytes()).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    /// The bytes of a file made from a clip.
    private func bytes() throws -> [UInt8] {
        switch recipe {
        case .truncated(let clip, let permille):
            let bytes = try MediaFixtures.bytes(clip)
            return Array(bytes.prefix(bytes.count * permille / 1000))
        case .flipped(let clip, let seed, let per, let sampleDataOnly):
            var bytes = try MediaFixtures.bytes(clip)
            let from = sampleDataOnly ? try Self.offset(of: "mdat", in: bytes) + 4 : 0
            Self.flipBits(&bytes, in: from..<bytes.count, onePer: per, seed: seed)
            return bytes
        case .zeroedMiddle(let clip):
            var bytes = try MediaFixtures.bytes(clip)
            let start = bytes.count / 2 / 1024 * 1024
            bytes.replaceSubrange(start..<start + 16_384, with: repeatElement(0, count: 16_384))
            return bytes
        case .patched(let clip, let box, let offset, let patch):
            var bytes = try MediaFixtures.bytes(clip)
            let start = try Self.offset(of: box, in: bytes) + offset
            bytes.replaceSubrange(start..<start + patch.count, with: patch)
            return bytes
        case .replacedFourCC(let clip, let from, let to):
            var bytes = try MediaFixtures.bytes(clip)
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
            return try MediaFixtures.bytes(clip)
        default:
            return []
        }
    }

    /// Flips one bit per `per` bytes of `range` (at least one), at offsets drawn from the generator, as the script
    /// does.
    static func flipBits(_ bytes: inout [UInt8], in range: Range<Int>, onePer per: Int, seed: UInt64) {
        var random = BrokenMediaGenerator(seed: seed)
        for _ in 0..<max(range.count / per, 1) {
            let x = random.next()
            let offset = range.lowerBound + Int((x >> 33) & 0x7FFF_FFFF) % range.count
            bytes[offset] ^= 1 << UInt8((x >> 29) & 7)
        }
    }

    /// Where the four characters `box` first occur in `bytes`.
    static func offset(of box: String, in bytes: [UInt8]) throws -> Int {
        let tag = Array(box.utf8)
        guard
            let index = (0...(bytes.count - tag.count)).first(where: { bytes[$0..<$0 + tag.count].elementsEqual(tag) })
        else { throw FixtureError("no '\(box)' in the clip") }
        return index
    }
}
