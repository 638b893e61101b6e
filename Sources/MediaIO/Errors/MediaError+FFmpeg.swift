import CFFmpeg

extension MediaError {
    /// An error for an FFmpeg return code, with FFmpeg's message.
    public init(_ kind: Kind, url: String, operation: Operation, ffmpegCode: Int32) {
        self.init(kind, url: url, operation: operation, code: ffmpegCode, reason: Self.ffmpegMessage(ffmpegCode))
    }

    /// FFmpeg's message for an error code (what `av_err2str` gives).
    public static func ffmpegMessage(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
