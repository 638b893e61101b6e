import Loading
import MediaCore
import MediaIO

/// An AES-128 segment (`#EXT-X-KEY:METHOD=AES-128`) read through its `RemoteByteSource` and decrypted as it is read:
/// its plaintext, offsets counted from the segment's first byte (they are the ciphertext's, but for the padding the
/// plaintext lacks at its end).
///
/// A seek lands on the block that holds the offset: CBC decrypts a block with the one before it, so the source reads
/// from the block before (the IV of the first) and the bytes before the offset in its block are decrypted and skipped.
///
/// `@unchecked Sendable`: read by one thread at a time (the stream's reader); it may be handed to another.
final class DecryptedPart: @unchecked Sendable {
    let source: RemoteByteSource
    /// The segment's URL, named by the errors.
    let url: String
    private let key: [UInt8]
    private let iv: [UInt8]
    /// The segment in the resource: from `start`, to `end` when it is a byte range (else to the resource's end).
    private let start: Int64
    private let end: Int64?
    private var decryptor: AES128CBCDecryptor
    /// The next ciphertext byte to read, from `start`.
    private var cipherOffset: Int64 = 0
    /// Plaintext decrypted and not handed out yet: `plaintext[plainIndex...]`.
    private var plaintext: [UInt8] = []
    private var plainIndex = 0
    private var finished = false
    /// The decryption's failure (bad padding), thrown again by every read until a seek starts over.
    private var failure: MediaError?
    /// The plaintext offset of the next byte handed out.
    private(set) var position: Int64 = 0
    /// The plaintext's length, once its end was decrypted.
    private(set) var length: Int64?
    /// Ciphertext as read, and bytes skipped (read and dropped).
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)

    /// Opens the segment at `range` of `source` (the whole resource when nil). `source` is positioned here.
    init(
        source: RemoteByteSource, url: String, range: ByteRange?, key: [UInt8], iv: [UInt8]
    ) throws(MediaError) {
        self.source = source
        self.url = url
        self.key = key
        self.iv = iv
        self.start = range?.offset ?? 0
        self.end = range?.end
        do throws(MediaError) {
            self.decryptor = try AES128CBCDecryptor(key: key, iv: iv, url: url)
            try source.seek(to: start)
        } catch {
            chunk.deallocate()
            scratch.deallocate()
            throw error
        }
        if let end = range?.end { source.setFetchLimit(end) }
    }

    deinit {
        chunk.deallocate()
        scratch.deallocate()
    }

    /// Reads plaintext into `buffer`; 0 at the segment's end.
    /// - Throws: the source's errors; `.truncated` when a byte range ends early; `.decodeFailed` for bad padding.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        while plainIndex == plaintext.count {
            if let failure { throw failure }
            if finished || buffer.count == 0 { return 0 }
            do throws(MediaError) {
                try fill()
            } catch {
                failure = error
                throw error
            }
        }
        let count = min(buffer.count, plaintext.count - plainIndex)
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            .copyBytes(from: plaintext[plainIndex..<plainIndex + count])
        plainIndex += count
        position += Int64(count)
        return count
    }

    /// Decrypts the next chunk of ciphertext (or the end).
    private func fill() throws(MediaError) {
        let room = end.map { Int(clamping: min(Int64(chunk.count), $0 - start - cipherOffset)) } ?? chunk.count
        let count = room > 0 ? try readCipher(room) : 0
        plainIndex = 0
        if count == 0 {
            if let end, start + cipherOffset < end {
                throw MediaError(
                    .truncated, url: url, operation: .read,
                    reason: "the segment ended \(end - start - cipherOffset) bytes early")
            }
            plaintext = try decryptor.decrypt([], final: true)
            finished = true
            length = position + Int64(plaintext.count)
        } else {
            cipherOffset += Int64(count)
            plaintext = try decryptor.decrypt(Array(chunk[0..<count]), final: false)
        }
    }

    private func readCipher(_ count: Int) throws(MediaError) -> Int {
        try source.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count]))
    }

    /// Makes the next read start at plaintext `offset` (past the end: reads return 0).
    func seek(to offset: Int64) throws(MediaError) {
        guard offset != position || finished else { return }
        let block = max(offset, 0) / Int64(AES128CBCDecryptor.blockSize)
        var chainIV = iv
        if let cipherEnd = end ?? source.size, start + block * 16 >= cipherEnd {
            // At or past the ciphertext's end (the plaintext ends before it).
            (plaintext, plainIndex, finished, position) = ([], 0, true, offset)
            return
        }
        if block > 0 {
            // The block before is the IV of the one that holds `offset`.
            try source.seek(to: start + (block - 1) * 16)
            var previous: [UInt8] = []
            while previous.count < 16 {
                let count = try readCipher(16 - previous.count)
                if count == 0 { break }
                previous.append(contentsOf: chunk[0..<count])
            }
            guard previous.count == 16 else {
                // Past the ciphertext's end.
                (plaintext, plainIndex, finished, position) = ([], 0, true, offset)
                return
            }
            chainIV = previous
        } else {
            try source.seek(to: start)
        }
        decryptor = try AES128CBCDecryptor(key: key, iv: chainIV, url: url)
        failure = nil
        cipherOffset = block * 16
        (plaintext, plainIndex, finished, position) = ([], 0, false, block * 16)
        var skip = Int(offset - block * 16)
        while skip > 0 {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<min(skip, 16)]))
            if count == 0 { break }
            skip -= count
        }
    }

    /// The plaintext's length: known once its end was read, else found by decrypting the last block when the
    /// ciphertext's length is known (a byte range, or the server told the resource's size); nil otherwise.
    func plaintextLength() throws(MediaError) -> Int64? {
        if let length { return length }
        guard let cipherLength = end.map({ $0 - start }) ?? source.size.map({ $0 - start }) else { return nil }
        guard cipherLength > 0, cipherLength % 16 == 0 else {
            throw MediaError(
                .decodeFailed, url: url, operation: .read,
                reason: "an AES-128 segment of \(cipherLength) bytes (not a whole number of 16-byte blocks)")
        }
        let resume = position
        try seek(to: cipherLength - 16)
        while try read(into: scratch) > 0 {}
        let length = self.length
        try seek(to: resume)
        return length
    }
}
