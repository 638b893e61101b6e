import CFFmpeg

/// AES-128 in CBC mode with PKCS#7 padding, as HLS encrypts whole segments (`#EXT-X-KEY:METHOD=AES-128`,
/// RFC 8216 section 5.2), decrypted with libavutil's AES. Owns its `AVAES` context, freed in `deinit`.
///
/// Streaming: ``decrypt(_:final:)`` takes the ciphertext in pieces of any size and returns the plaintext of the whole
/// blocks seen so far, keeping the last block back until `final` (it holds the padding, stripped and checked then).
///
/// `@unchecked Sendable`: used by one thread at a time (a segment's reader); it may be handed to another.
public final class AES128CBCDecryptor: @unchecked Sendable {
    /// The block and key size of AES-128, in bytes.
    public static let blockSize = 16

    /// The resource being decrypted, named by the errors.
    public let url: String
    private let context: OpaquePointer
    /// The previous ciphertext block (the IV at first), updated by `av_aes_crypt`.
    private var chain: [UInt8]
    /// Ciphertext not decrypted yet: less than a block.
    private var pending: [UInt8] = []
    /// The last decrypted block, kept back until the end (it holds the padding).
    private var heldBack: [UInt8] = []
    private var finished = false

    /// - Parameters:
    ///   - key: 16 bytes.
    ///   - iv: 16 bytes: the initialization vector.
    ///   - url: the resource decrypted, named by the errors.
    /// - Throws: `.invalidArgument` for a key or IV of another size.
    public init(key: [UInt8], iv: [UInt8], url: String) throws(MediaError) {
        guard key.count == Self.blockSize else {
            throw MediaError(
                .invalidArgument, url: url, operation: .decode,
                reason: "an AES-128 key has 16 bytes, this one \(key.count)")
        }
        guard iv.count == Self.blockSize else {
            throw MediaError(
                .invalidArgument, url: url, operation: .decode,
                reason: "an AES-128 initialization vector has 16 bytes, this one \(iv.count)")
        }
        guard let context = av_aes_alloc() else { fatalError("av_aes_alloc: out of memory") }
        let status = key.withUnsafeBufferPointer { av_aes_init(context, $0.baseAddress, 128, 1) }
        guard status == 0 else {
            av_free(UnsafeMutableRawPointer(context))
            throw MediaError(
                .invalidArgument, url: url, operation: .decode, code: status, reason: "av_aes_init refused the key")
        }
        self.context = context
        self.chain = iv
        self.url = url
    }

    deinit {
        av_free(UnsafeMutableRawPointer(context))
    }

    /// Decrypts the next `input` bytes of ciphertext. Returns the plaintext that can be handed out so far: with
    /// `final` false, all of it but the last whole block; with `final` true (the ciphertext ends with `input`), the
    /// rest, its padding removed.
    /// - Throws: `.decodeFailed` naming ``url`` when the ciphertext does not end on a whole block, is empty, or its
    ///   last block does not end with valid PKCS#7 padding (a wrong key or IV, or damaged bytes); `.invalidArgument`
    ///   for a call after the final one.
    public func decrypt(_ input: [UInt8], final: Bool) throws(MediaError) -> [UInt8] {
        guard !finished else {
            throw MediaError(
                .invalidArgument, url: url, operation: .decode, reason: "decrypt called after the final block")
        }
        pending.append(contentsOf: input)
        let whole = pending.count - pending.count % Self.blockSize
        var decrypted = heldBack
        if whole > 0 {
            let start = decrypted.count
            decrypted.append(contentsOf: repeatElement(0, count: whole))
            decrypted.withUnsafeMutableBufferPointer { out in
                pending.withUnsafeBufferPointer { source in
                    chain.withUnsafeMutableBufferPointer { iv in
                        av_aes_crypt(
                            context, out.baseAddress.map { $0 + start }, source.baseAddress,
                            Int32(whole / Self.blockSize), iv.baseAddress, 1)
                    }
                }
            }
            pending.removeFirst(whole)
        }
        guard final else {
            let keep = min(Self.blockSize, decrypted.count)
            heldBack = Array(decrypted.suffix(keep))
            decrypted.removeLast(keep)
            return decrypted
        }
        finished = true
        heldBack = []
        guard pending.isEmpty else {
            throw MediaError(
                .decodeFailed, url: url, operation: .decode,
                reason: "the AES-128 ciphertext ends \(pending.count) bytes into a block (not a whole number of blocks)"
            )
        }
        guard let padding = decrypted.last else {
            throw MediaError(
                .decodeFailed, url: url, operation: .decode,
                reason: "the AES-128 ciphertext is empty (no padding block)")
        }
        let count = Int(padding)
        guard count >= 1, count <= Self.blockSize, decrypted.suffix(count).allSatisfy({ $0 == padding }) else {
            throw MediaError(
                .decodeFailed, url: url, operation: .decode,
                reason: "the decrypted segment does not end with valid PKCS#7 padding (a wrong AES-128 key or IV?)")
        }
        decrypted.removeLast(count)
        return decrypted
    }
}
