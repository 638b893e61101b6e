import PlaybackTesting
import Testing

@testable import Loading

/// The disk tier's checksum: the standard CRC-32 (zlib's), at every length and alignment.
@Suite("CRC-32 of disk cache chunks")
struct CRC32Tests {
    /// A byte at a time, as the definition goes.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test func knownValues() {
        #expect([UInt8]().withUnsafeBytes { CRC32.checksum($0) } == 0)
        #expect(Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) } == 0xCBF4_3926)
        #expect(
            Array("The quick brown fox jumps over the lazy dog".utf8).withUnsafeBytes { CRC32.checksum($0) }
                == 0x414F_A339)
    }

    @Test func matchesTheBytewiseDefinitionAtEveryLengthAndAlignment() {
        var random = SplitMix64(seed: 32)
        let bytes = (0..<(256 << 10) + 13).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            for start in 0..<8 {
                for length in Array(0..<40) + [255, 4096, 65_537] {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<start + length])
                    #expect(CRC32.checksum(slice) == Self.reference(Array(slice)), "start \(start), length \(length)")
                }
            }
            #expect(CRC32.checksum(all) == Self.reference(bytes))
        }
    }
}
