import MediaIO

/// A seek bar's storyboard: thumbnails laid out in a grid on one picture (the sprite sheet), and a WebVTT track
/// whose cues name, for each interval of the media, the rectangle of its thumbnail (`sprite.jpg#xywh=x,y,w,h`), as
/// web players read it.
public struct Storyboard: Sendable {
    /// A tile: its time span and its rectangle in the sprite.
    public struct Tile: Sendable, Equatable {
        public let start: Double
        public let end: Double
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
    }

    public let thumbnails: [Thumbnail]
    public let columns: Int
    public let tileWidth: Int
    public let tileHeight: Int
    /// The end of the last cue: the media's duration (or the last thumbnail's time plus one interval).
    public let duration: Double

    /// `thumbnails` (in time order) laid out `columns` to a row.
    public init(thumbnails: [Thumbnail], columns: Int, duration: Double) {
        self.thumbnails = thumbnails
        self.columns = max(min(columns, max(thumbnails.count, 1)), 1)
        tileWidth = thumbnails.first?.rgba.width ?? 0
        tileHeight = thumbnails.first?.rgba.height ?? 0
        let step = thumbnails.count > 1 ? thumbnails[1].requestedSeconds - thumbnails[0].requestedSeconds : duration
        let last = (thumbnails.last?.requestedSeconds ?? 0)
        self.duration = duration > last ? duration : last + max(step, 1)
    }

    public var rows: Int { (thumbnails.count + columns - 1) / columns }

    /// Each thumbnail's cue: from its time to the next one's (the last to the end), and its rectangle.
    public var tiles: [Tile] {
        thumbnails.indices.map { index in
            let start = thumbnails[index].requestedSeconds
            let end = index + 1 < thumbnails.count ? thumbnails[index + 1].requestedSeconds : duration
            return Tile(
                start: start, end: end, x: (index % columns) * tileWidth, y: (index / columns) * tileHeight,
                width: tileWidth, height: tileHeight)
        }
    }

    /// The sprite sheet as RGBA: every thumbnail in its rectangle, the rest of the last row black.
    public func sprite() -> VideoImage {
        let width = columns * tileWidth
        let height = rows * tileHeight
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for (index, tile) in tiles.enumerated() {
            let image = thumbnails[index].rgba
            for row in 0..<tile.height {
                let from = row * image.bytesPerRow[0]
                let to = ((tile.y + row) * width + tile.x) * 4
                bytes.replaceSubrange(to..<to + tile.width * 4, with: image.bytes[from..<from + tile.width * 4])
            }
        }
        for alpha in stride(from: 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        return VideoImage(
            width: width, height: height, pixelFormat: .rgba, bytes: bytes, planeOffsets: [0],
            bytesPerRow: [width * 4], time: .zero)
    }

    /// The sprite sheet encoded: PNG when `name` ends in `.png`, JPEG otherwise.
    public func encodedSprite(named name: String) throws(MediaError) -> [UInt8] {
        let image = sprite()
        if name.lowercased().hasSuffix(".png") { return try PNGEncoder.encode(image, url: name) }
        return try JPEGEncoder.encode(image, url: name)
    }

    /// The WebVTT track: one cue per thumbnail, its text `spriteURL#xywh=x,y,w,h`.
    public func webVTT(spriteURL: String) -> String {
        var text = "WEBVTT\n"
        for tile in tiles {
            text += "\n\(Self.timestamp(tile.start)) --> \(Self.timestamp(tile.end))\n"
            text += "\(spriteURL)#xywh=\(tile.x),\(tile.y),\(tile.width),\(tile.height)\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt`, as WebVTT writes a cue's time.
    static func timestamp(_ seconds: Double) -> String {
        let millis = Int((max(seconds, 0) * 1000).rounded())
        let (h, m, s, ms) = (millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
    }
}
