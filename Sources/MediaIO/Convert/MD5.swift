import CFFmpeg

/// FFmpeg's MD5 (`av_md5_sum`), as the framemd5 muxer uses it.
public enum MD5 {
    /// The digest of `bytes` as 32 lowercase hex digits.
    public static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeBufferPointer { input in
            av_md5_sum(&digest, input.baseAddress, input.count)
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(32)
        for byte in digest {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
