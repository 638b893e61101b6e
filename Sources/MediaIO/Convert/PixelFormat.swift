import CFFmpeg

/// A picture's pixel format: the common ones by name, any other by FFmpeg's own value.
public struct PixelFormat: Sendable, Hashable, CustomStringConvertible {
    let raw: AVPixelFormat

    init(_ raw: AVPixelFormat) { self.raw = raw }

    public static let rgba = PixelFormat(AV_PIX_FMT_RGBA)
    public static let bgra = PixelFormat(AV_PIX_FMT_BGRA)
    public static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    public static let nv12 = PixelFormat(AV_PIX_FMT_NV12)
    public static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)

    /// A format by FFmpeg's name (`rgba`, `nv12`, `yuv420p10le`, ...), or nil if FFmpeg has no such format.
    public init?(name: String) {
        let value = av_get_pix_fmt(name)
        guard value != AV_PIX_FMT_NONE else { return nil }
        raw = value
    }

    /// FFmpeg's name for the format.
    public var name: String {
        guard let cName = av_get_pix_fmt_name(raw) else { return "none" }
        return String(cString: cName)
    }

    public var description: String { name }

    public static func == (lhs: PixelFormat, rhs: PixelFormat) -> Bool { lhs.raw.rawValue == rhs.raw.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(raw.rawValue) }
}
