import Foundation
import MediaCore

/// An HLS attribute list (RFC 8216 §4.2): `NAME=value` pairs separated by commas, where a value is a decimal
/// integer, a hexadecimal sequence (`0x...`), a decimal float, a quoted string (which may hold commas), an
/// enumerated string or a decimal resolution (`1920x1080`). The typed accessors check the form and throw
/// `.malformedManifest` naming the line.
struct HLSAttributeList {
    private var values: [String: String] = [:]
    /// The tag's line, for errors.
    let line: Int
    let url: String

    /// Parses `text` (what follows the tag's colon) found on `line` of the playlist at `url`.
    init(_ text: Substring, line: Int, url: String) throws(MediaError) {
        self.line = line
        self.url = url
        var index = text.startIndex
        while index < text.endIndex {
            guard let equals = text[index...].firstIndex(of: "=") else {
                throw HLSPlaylistParser.malformed(url, line, "attribute without '=' in '\(text)'")
            }
            let name = text[index..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw HLSPlaylistParser.malformed(url, line, "attribute without a name") }
            var valueStart = text.index(after: equals)
            let value: Substring
            if valueStart < text.endIndex, text[valueStart] == "\"" {
                valueStart = text.index(after: valueStart)
                guard let close = text[valueStart...].firstIndex(of: "\"") else {
                    throw HLSPlaylistParser.malformed(url, line, "unterminated quoted string in attribute \(name)")
                }
                value = text[valueStart..<close]
                index = text.index(after: close)
                // After a quoted string: the end, or a comma.
                while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
                if index < text.endIndex {
                    guard text[index] == "," else {
                        throw HLSPlaylistParser.malformed(url, line, "unexpected text after attribute \(name)")
                    }
                    index = text.index(after: index)
                }
            } else {
                let comma = text[valueStart...].firstIndex(of: ",") ?? text.endIndex
                value = text[valueStart..<comma]
                index = comma < text.endIndex ? text.index(after: comma) : comma
            }
            values[name] = String(value)
        }
    }

    /// The raw value of `name` (a quoted string without its quotes), or nil when absent.
    subscript(name: String) -> String? { values[name] }

    /// The value of a required attribute.
    func required(_ name: String, of tag: String) throws(MediaError) -> String {
        guard let value = values[name] else {
            throw HLSPlaylistParser.malformed(url, line, "\(tag) without \(name)")
        }
        return value
    }

    /// A decimal integer (`BANDWIDTH`), or nil when absent.
    func integer(_ name: String) throws(MediaError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = HLSPlaylistParser.decimalInteger(text) else {
            throw HLSPlaylistParser.malformed(url, line, "\(name) is not a decimal integer: '\(text)'")
        }
        return value
    }

    /// A non-negative decimal float (`FRAME-RATE`), or nil when absent.
    func decimal(_ name: String) throws(MediaError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = HLSPlaylistParser.decimalFloat(text) else {
            throw HLSPlaylistParser.malformed(url, line, "\(name) is not a decimal number: '\(text)'")
        }
        return value
    }

    /// A decimal resolution (`RESOLUTION=1280x720`), or nil when absent.
    func resolution(_ name: String) throws(MediaError) -> Resolution? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = HLSPlaylistParser.decimalInteger(parts[0]),
            let height = HLSPlaylistParser.decimalInteger(parts[1])
        else {
            throw HLSPlaylistParser.malformed(url, line, "\(name) is not a resolution (WIDTHxHEIGHT): '\(text)'")
        }
        return Resolution(width: width, height: height)
    }

    /// An enumerated `YES`/`NO` (`DEFAULT`, `AUTOSELECT`); false when absent.
    func flag(_ name: String) throws(MediaError) -> Bool {
        guard let text = values[name] else { return false }
        switch text {
        case "YES": return true
        case "NO": return false
        default: throw HLSPlaylistParser.malformed(url, line, "\(name) is neither YES nor NO: '\(text)'")
        }
    }

    /// A hexadecimal sequence (`IV=0x...`) as 16 bytes (shorter ones are padded on the left), or nil when absent.
    func iv(_ name: String) throws(MediaError) -> [UInt8]? {
        guard let text = values[name] else { return nil }
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? Array(text.utf8.dropFirst(2)) : []
        guard !digits.isEmpty, digits.count <= 32 else {
            throw HLSPlaylistParser.malformed(url, line, "\(name) is not a 128-bit hexadecimal value: '\(text)'")
        }
        var nibbles = [UInt8](repeating: 0, count: 32 - digits.count)
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(digit - UInt8(ascii: "A") + 10)
            default:
                throw HLSPlaylistParser.malformed(url, line, "\(name) has a non-hexadecimal digit: '\(text)'")
            }
        }
        return (0..<16).map { nibbles[2 * $0] << 4 | nibbles[2 * $0 + 1] }
    }
}
