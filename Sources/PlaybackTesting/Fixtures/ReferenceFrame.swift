/// One decoded frame as the reference tools see it: its time as ffprobe prints it (six decimals, seconds from the
/// start of the media) and the md5 `ffmpeg -f framemd5` gives its picture.
public struct ReferenceFrame: Sendable, Equatable {
    /// The time as written in the reference list (`"0.033333"`, `"-0.007000"`).
    public var time: String
    /// The md5 of the decoded picture.
    public var md5: String

    /// A frame with this time text and md5.
    public init(time: String, md5: String) {
        self.time = time
        self.md5 = md5
    }

    /// The time in seconds (NaN if the text is not a number).
    public var seconds: Double { Double(time) ?? .nan }

    /// The time in whole microseconds, exactly as written (see `microseconds(_:)`).
    public var microseconds: Int64 { Self.microseconds(time) ?? .min }

    /// A decimal number of seconds with at most six decimals (`"8.3"`, `"-0.007000"`) as whole microseconds,
    /// computed exactly; `nil` if the text is not one.
    public static func microseconds(_ text: String) -> Int64? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 6, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        fraction += String(repeating: "0", count: 6 - fraction.count)
        let value = whole * 1_000_000 + Int64(fraction)!
        return negative ? -value : value
    }
}

extension Array where Element == ReferenceFrame {
    /// The index of the frame on screen at `microseconds`: the latest frame whose time is not after it, or the first
    /// frame for earlier times.
    public func indexOnScreen(atMicroseconds microseconds: Int64) -> Int {
        lastIndex { $0.microseconds <= microseconds } ?? 0
    }
}
