/// A picture's pixel format, by FFmpeg's name for it (`yuv420p`, `nv12`, `rgba`, `yuv420p10le`, ...).
///
/// A plain name, so that layers without FFmpeg can say which format they want; the decoding layer checks it
/// when it converts (a name FFmpeg does not know fails there with a `MediaError`).
public struct PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// FFmpeg's name for the format.
    public let name: String

    /// The format FFmpeg calls `name`.
    public init(name: String) { self.name = name }

    public static let rgba = PixelFormat(name: "rgba")
    public static let bgra = PixelFormat(name: "bgra")
    public static let rgb24 = PixelFormat(name: "rgb24")
    public static let nv12 = PixelFormat(name: "nv12")
    public static let yuv420p = PixelFormat(name: "yuv420p")

    public var description: String { name }
}
