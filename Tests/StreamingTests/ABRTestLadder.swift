import Streaming

/// The ladder of the ABR tests: 0.8, 1.6, 3 and 5 Mbit/s, 360p to 1080p, ids "v800" to "v5000".
enum ABRTestLadder {
    static let v800 = variant("v800", 800_000, 640, 360)
    static let v1600 = variant("v1600", 1_600_000, 960, 540)
    static let v3000 = variant("v3000", 3_000_000, 1280, 720)
    static let v5000 = variant("v5000", 5_000_000, 1920, 1080)
    static let variants = [v800, v1600, v3000, v5000]

    static func variant(_ id: String, _ bandwidth: Int, _ width: Int, _ height: Int) -> Variant {
        Variant(
            id: id, bandwidth: bandwidth, resolution: Resolution(width: width, height: height),
            media: .playlist(url: "https://example.com/\(id).m3u8"))
    }

    /// Bytes of a download of `seconds` at `bitsPerSecond`.
    static func bytes(_ bitsPerSecond: Double, _ seconds: Double) -> Int { Int(bitsPerSecond * seconds / 8) }
}

extension ABRMachine {
    /// Feeds `seconds` of downloads at `bitsPerSecond` in samples of `each` seconds.
    mutating func feed(_ bitsPerSecond: Double, for seconds: Double, each: Double = 2) {
        var fed = 0.0
        while fed < seconds {
            segmentLoaded(bytes: ABRTestLadder.bytes(bitsPerSecond, each), seconds: each, variantID: "test")
            fed += each
        }
    }
}
