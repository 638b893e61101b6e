import Foundation

/// CoreGraphics' image, as far as AVFoundation hands one out on Linux (`AVAssetImageGenerator`): 8-bit RGBA pixels,
/// opaque (alpha 255), rows packed top to bottom. Read its pixels with `dataProvider?.data` as on Apple platforms.
public final class CGImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// The pixels' provider (never nil for an image made here).
    public let dataProvider: CGDataProvider?

    /// 8: one byte a component.
    public var bitsPerComponent: Int { 8 }
    /// 32: four components a pixel, red, green, blue, alpha.
    public var bitsPerPixel: Int { 32 }

    /// An image of `width` x `height` RGBA pixels in `data` (`bytesPerRow` a row; at least `width x 4`).
    /// Nil when `data` is shorter than the rows need.
    public init?(width: Int, height: Int, bytesPerRow: Int, rgba data: Data) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, data.count >= bytesPerRow * height else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.dataProvider = CGDataProvider(data: data)
    }
}

/// Where a ``CGImage``'s bytes come from.
public final class CGDataProvider: @unchecked Sendable {
    /// The bytes (`CFData` on Apple platforms, `Data` here: `provider.data as Data?` reads the same on both).
    public let data: Data?

    public init(data: Data) { self.data = data }
}
