import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("AES-128-CBC decryption (HLS METHOD=AES-128)")
struct AES128CBCDecryptorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    // NIST SP 800-38A, F.2.1/F.2.2 (CBC-AES128).
    static let nistKey = bytes("2b7e151628aed2a6abf7158809cf4f3c")
    static let nistIV = bytes("000102030405060708090a0b0c0d0e0f")
    static let nistPlaintext = bytes(
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")
    static let nistCiphertext = bytes(
        "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7")

    @Test("the NIST CBC vector decrypts block for block; its last block is held back and is not valid padding")
    func nistVector() throws {
        let decryptor = try AES128CBCDecryptor(key: Self.nistKey, iv: Self.nistIV, url: "http://h/s.ts")
        var plaintext: [UInt8] = []
        // In pieces that do not end on blocks.
        var offset = 0
        for piece in [5, 20, 30, 9] {
            plaintext += try decryptor.decrypt(
                Array(Self.nistCiphertext[offset..<offset + piece]), final: false)
            offset += piece
        }
        #expect(plaintext == Array(Self.nistPlaintext.prefix(48)), "all but the last block, held back")
        // Its last block ends in 0x10 but is not sixteen 0x10s: not PKCS#7 padding.
        #expect {
            _ = try decryptor.decrypt([], final: true)
        } throws: { error in
            guard let error = error as? MediaError else { return false }
            return error.kind == .decodeFailed && error.url == "http://h/s.ts" && error.reason.contains("padding")
        }
    }

    @Test("a key or IV of another size than 16 bytes is refused, naming the URL")
    func sizes() {
        for (key, iv) in [(Array(Self.nistKey.prefix(15)), Self.nistIV), (Self.nistKey, Self.nistIV + [0])] {
            #expect {
                _ = try AES128CBCDecryptor(key: key, iv: iv, url: "http://h/k")
            } throws: { error in
                (error as? MediaError)?.kind == .invalidArgument && (error as? MediaError)?.url == "http://h/k"
            }
        }
    }

    @Test("a ciphertext that does not end on a block, or is empty, fails at its end")
    func wholeBlocks() throws {
        let cut = try AES128CBCDecryptor(key: Self.nistKey, iv: Self.nistIV, url: "u")
        _ = try cut.decrypt(Array(Self.nistCiphertext.prefix(40)), final: false)
        #expect(throws: MediaError.self) { _ = try cut.decrypt([], final: true) }
        let empty = try AES128CBCDecryptor(key: Self.nistKey, iv: Self.nistIV, url: "u")
        #expect(throws: MediaError.self) { _ = try empty.decrypt([], final: true) }
    }

    @Test(
        "what openssl encrypts with PKCS#7 padding decrypts to the same bytes, whatever the pieces",
        .enabled(if: ProcessRunner.findExecutable("openssl") != nil, "needs openssl"),
        arguments: [0, 1, 15, 16, 17, 31, 32, 1000])
    func paddedByOpenSSL(length: Int) throws {
        let openssl = try #require(ProcessRunner.findExecutable("openssl"))
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("plain")
        let clear = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        try Data(clear).write(to: input)
        let key = Array(UInt8(0)..<16)
        let iv = Self.bytes("000000000000000000000000000000\(String(format: "%02x", length % 256))")
        let result = try ProcessRunner.run(
            openssl,
            [
                "enc", "-aes-128-cbc", "-K", "000102030405060708090a0b0c0d0e0f", "-iv",
                iv.map { String(format: "%02x", $0) }.joined(), "-in", input.path,
            ], standardOutput: .capture, timeout: 30)
        try #require(result.exitStatus == 0)
        let ciphertext = result.output
        #expect(ciphertext.count == (length / 16 + 1) * 16, "PKCS#7 always pads")
        for piece in [1, 7, 16, 33, 4096] {
            let decryptor = try AES128CBCDecryptor(key: key, iv: iv, url: "u")
            var out: [UInt8] = []
            var offset = 0
            while offset < ciphertext.count {
                let end = min(offset + piece, ciphertext.count)
                out += try decryptor.decrypt(Array(ciphertext[offset..<end]), final: false)
                offset = end
            }
            out += try decryptor.decrypt([], final: true)
            #expect(out == clear, "length \(length) in pieces of \(piece)")
        }
        // The wrong key: the padding check catches it (or, 1 time in ~256, a 0x01 byte ends it: then the bytes differ).
        let wrong = try AES128CBCDecryptor(key: Array(repeating: 0, count: 16), iv: iv, url: "u")
        do throws(MediaError) {
            let out = try wrong.decrypt(ciphertext, final: false) + wrong.decrypt([], final: true)
            #expect(out != clear)
        } catch {
            #expect(error.kind == .decodeFailed)
        }
    }
}
