/// Reads the content of one ID3v2 frame (its body, past the extra bytes of its flags) into an ``ID3Frame``, by the
/// layout its id gives (id3.org's "ID3v2.4.0 native frames", "ID3v2.3.0" section 4, "ID3v2.2.0" section 4).
enum ID3FrameContent {
    /// The frame `id` whose content is `content`.
    static func frame(id: String, content: [UInt8]) -> ID3Frame {
        var reader = Reader(bytes: content)
        return read(id: id, &reader) ?? ID3Frame(id: id, data: content)
    }

    /// The frame `id` read from `reader`; nil when its content does not have the frame's layout (or the frame has
    /// none of its own here).
    private static func read(id: String, _ reader: inout Reader) -> ID3Frame? {
        switch id {
        case "TXXX", "TXX":
            return reader.encoded { reader, encoding in
                let description = reader.string(in: encoding)
                return ID3Frame(id: id, description: description, text: reader.values(in: encoding))
            }
        case "WXXX", "WXX":
            return reader.encoded { reader, encoding in
                let description = reader.string(in: encoding)
                return ID3Frame(id: id, description: description, text: reader.string(in: .latin1))
            }
        case "COMM", "COM", "USLT", "ULT":
            return reader.encoded { reader, encoding in
                guard reader.skip(3) else { return nil }  // the language
                let description = reader.string(in: encoding)
                return ID3Frame(id: id, description: description, text: reader.values(in: encoding))
            }
        case "PRIV":
            let owner = reader.string(in: .latin1)
            return ID3Frame(id: id, description: owner, data: reader.rest())
        case "GEOB", "GEO":
            return reader.encoded { reader, encoding in
                _ = reader.string(in: .latin1)  // the MIME type
                _ = reader.string(in: encoding)  // the file name
                let description = reader.string(in: encoding)
                return ID3Frame(id: id, description: description, data: reader.rest())
            }
        case "APIC", "PIC":
            return reader.encoded { reader, encoding in
                // The MIME type (a three-letter image format in ID3v2.2), then the picture type.
                if id == "PIC" {
                    guard reader.skip(3) else { return nil }
                } else {
                    _ = reader.string(in: .latin1)
                }
                guard reader.skip(1) else { return nil }
                let description = reader.string(in: encoding)
                return ID3Frame(id: id, description: description, data: reader.rest())
            }
        default:
            if id.hasPrefix("T") {
                return reader.encoded { reader, encoding in ID3Frame(id: id, text: reader.values(in: encoding)) }
            }
            if id.hasPrefix("W") { return ID3Frame(id: id, text: reader.string(in: .latin1)) }
            return nil
        }
    }

    /// ID3's text encodings (the byte that starts a frame with text).
    enum Encoding: UInt8 {
        case latin1 = 0
        case utf16 = 1
        case utf16BigEndian = 2
        case utf8 = 3

        /// Bytes per code unit, and so per terminator.
        var unitSize: Int { self == .utf16 || self == .utf16BigEndian ? 2 : 1 }

        /// `bytes` decoded (invalid sequences become U+FFFD). UTF-16 follows its byte order mark when it has one
        /// (which is dropped), big-endian otherwise; an odd last byte is dropped.
        func decode(_ bytes: ArraySlice<UInt8>) -> String {
            switch self {
            case .latin1: return String(bytes.map { Character(Unicode.Scalar($0)) })
            case .utf8: return String(decoding: bytes, as: UTF8.self)
            case .utf16, .utf16BigEndian:
                var units = bytes
                var littleEndian = false
                if units.count >= 2, units.first == 0xFF, units.dropFirst().first == 0xFE {
                    littleEndian = true
                    units = units.dropFirst(2)
                } else if units.count >= 2, units.first == 0xFE, units.dropFirst().first == 0xFF {
                    units = units.dropFirst(2)
                }
                let codeUnits = stride(from: units.startIndex, to: units.endIndex - 1, by: 2).map { index -> UInt16 in
                    let (first, second) = (UInt16(units[index]), UInt16(units[index + 1]))
                    return littleEndian ? second << 8 | first : first << 8 | second
                }
                return String(decoding: codeUnits, as: UTF16.self)
            }
        }
    }

    /// A cursor over a frame's content.
    struct Reader {
        let bytes: [UInt8]
        var position = 0

        /// Reads the encoding byte, then the rest with `body`; nil when the content is empty, the encoding unknown
        /// or `body` finds the content short.
        mutating func encoded(_ body: (inout Reader, Encoding) -> ID3Frame?) -> ID3Frame? {
            guard position < bytes.count, let encoding = Encoding(rawValue: bytes[position]) else { return nil }
            position += 1
            return body(&self, encoding)
        }

        /// Moves past `count` bytes; false when there are not that many.
        mutating func skip(_ count: Int) -> Bool {
            guard bytes.count - position >= count else { return false }
            position += count
            return true
        }

        /// The string up to its terminator (or the end), which it moves past.
        mutating func string(in encoding: Encoding) -> String {
            let unit = encoding.unitSize
            var end = position
            while bytes.count - end >= unit, !bytes[end..<end + unit].allSatisfy({ $0 == 0 }) { end += unit }
            let text = encoding.decode(bytes[position..<min(end, bytes.count)])
            position = min(bytes.count, end + unit)
            return text
        }

        /// Every string up to the end (ID3v2.4 separates a frame's values with terminators), trailing empty ones
        /// dropped, joined with U+0000.
        mutating func values(in encoding: Encoding) -> String {
            var values: [String] = []
            while position < bytes.count { values.append(string(in: encoding)) }
            while values.last?.isEmpty == true { values.removeLast() }
            return values.joined(separator: "\u{0}")
        }

        /// The bytes left.
        mutating func rest() -> [UInt8] {
            defer { position = bytes.count }
            return Array(bytes[min(position, bytes.count)...])
        }
    }
}
