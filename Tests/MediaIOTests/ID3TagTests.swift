import PlaybackTesting
import Testing

@testable import MediaIO

/// ID3v2 tags built here byte by byte, as the specifications (id3.org's ID3v2.2, 2.3 and 2.4) lay them out.
enum ID3Bytes {
    static func syncsafe(_ n: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((n >> $0) & 0x7F) } }
    static func plain32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) } }
    static func latin1(_ s: String) -> [UInt8] { s.unicodeScalars.map { UInt8($0.value) } }
    static func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
    static func utf16LE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func utf16BE(_ s: String) -> [UInt8] { s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    /// A frame: sizes syncsafe in 2.4, plain in 2.3, three bytes (and a three-character id, no flags) in 2.2.
    static func frame(_ version: Int, _ id: String, _ body: [UInt8], flags: [UInt8] = [0, 0]) -> [UInt8] {
        switch version {
        case 2: return latin1(id) + plain32(body.count).suffix(3) + body
        case 3: return latin1(id) + plain32(body.count) + flags + body
        default: return latin1(id) + syncsafe(body.count) + flags + body
        }
    }

    /// A tag of `frames` (already unsynchronised when `flags` says so).
    static func tag(_ version: UInt8, flags: UInt8 = 0, _ frames: [UInt8]...) -> [UInt8] {
        let body = frames.flatMap { $0 }
        return latin1("ID3") + [version, 0, flags] + syncsafe(body.count) + body
    }

    /// ID3's unsynchronisation: a 0x00 after each 0xFF followed by 0xE0 or more, or by 0x00, or at the end.
    static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            if byte == 0xFF && (index + 1 == bytes.count || bytes[index + 1] >= 0xE0 || bytes[index + 1] == 0) {
                out.append(0)
            }
        }
        return out
    }
}

@Suite("ID3v2 tags: versions, text encodings, frames, unsynchronisation, damage")
struct ID3TagTests {
    typealias B = ID3Bytes

    @Test("ID3v2.4: TXXX, text in each encoding, WXXX, URL, COMM, PRIV, GEOB, APIC, an unknown frame")
    func version4() throws {
        let tag = B.tag(
            4,
            B.frame(4, "TXXX", [3] + B.utf8("title") + [0] + B.utf8("Chapter 1")),
            B.frame(4, "TIT2", [0] + B.latin1("Caf\u{E9}")),
            B.frame(4, "TPE1", [1, 0xFF, 0xFE] + B.utf16LE("Größe 日本")),
            B.frame(4, "TALB", [2] + B.utf16BE("Älbum 𝄞")),
            B.frame(4, "TCON", [3] + B.utf8("Rock") + [0] + B.utf8("Jazz") + [0]),
            B.frame(4, "WXXX", [3] + B.utf8("home") + [0] + B.latin1("https://example.com/a")),
            B.frame(4, "WOAF", B.latin1("https://example.com/file")),
            B.frame(4, "COMM", [3] + B.latin1("eng") + B.utf8("short") + [0] + B.utf8("long text")),
            B.frame(4, "PRIV", B.latin1("com.example.owner") + [0, 1, 2, 0, 0xFF]),
            B.frame(4, "GEOB", [0] + B.latin1("text/plain") + [0] + B.latin1("a.txt") + [0, 0x64, 0] + [9, 8, 7]),
            B.frame(4, "APIC", [0] + B.latin1("image/png") + [0, 3] + B.latin1("cover") + [0] + [0x89, 0x50]),
            B.frame(4, "XYZ1", [1, 2, 3]))
        #expect(
            ID3Tag.frames(in: tag) == [
                ID3Frame(id: "TXXX", description: "title", text: "Chapter 1"),
                ID3Frame(id: "TIT2", text: "Café"),
                ID3Frame(id: "TPE1", text: "Größe 日本"),
                ID3Frame(id: "TALB", text: "Älbum 𝄞"),
                ID3Frame(id: "TCON", text: "Rock\u{0}Jazz"),
                ID3Frame(id: "WXXX", description: "home", text: "https://example.com/a"),
                ID3Frame(id: "WOAF", text: "https://example.com/file"),
                ID3Frame(id: "COMM", description: "short", text: "long text"),
                ID3Frame(id: "PRIV", description: "com.example.owner", data: [1, 2, 0, 0xFF]),
                ID3Frame(id: "GEOB", description: "d", data: [9, 8, 7]),
                ID3Frame(id: "APIC", description: "cover", data: [0x89, 0x50]),
                ID3Frame(id: "XYZ1", data: [1, 2, 3]),
            ])
    }

    @Test("ID3v2.3: plain frame sizes (a frame of 200 bytes), UTF-16 with either byte order mark, padding")
    func version3() throws {
        let blob = (0..<200).map { UInt8($0) }
        let tag = B.tag(
            3,
            B.frame(
                3, "TXXX", [1, 0xFE, 0xFF] + B.utf16BE("key") + [0, 0, 0xFF, 0xFE] + B.utf16LE("välue") + [0, 0]),
            B.frame(3, "PRIV", B.latin1("owner") + [0] + blob),
            B.frame(3, "COMM", [1] + B.latin1("deu") + [0xFF, 0xFE, 0, 0, 0xFF, 0xFE] + B.utf16LE("Grüße")),
            [UInt8](repeating: 0, count: 64))
        #expect(
            ID3Tag.frames(in: tag) == [
                ID3Frame(id: "TXXX", description: "key", text: "välue"),
                ID3Frame(id: "PRIV", description: "owner", data: blob),
                ID3Frame(id: "COMM", description: "", text: "Grüße"),
            ])
        // The same frame in ID3v2.4 has a syncsafe size: 206 is 0x00 0x00 0x01 0x4E there, 0x00 0x00 0x00 0xCE here.
        let four = B.tag(4, B.frame(4, "PRIV", B.latin1("owner") + [0] + blob))
        #expect(Array(four[14..<18]) == [0, 0, 1, 0x4E])
        #expect(ID3Tag.frames(in: four) == [ID3Frame(id: "PRIV", description: "owner", data: blob)])
    }

    @Test("ID3v2.2: three-character ids and sizes")
    func version2() throws {
        let tag = B.tag(
            2, B.frame(2, "TT2", [0] + B.latin1("Title")), B.frame(2, "TXX", [0] + B.latin1("k") + [0] + B.latin1("v")),
            B.frame(2, "COM", [0] + B.latin1("eng") + [0] + B.latin1("note")),
            B.frame(2, "PIC", [0] + B.latin1("PNG") + [3] + B.latin1("c") + [0] + [1, 2]))
        #expect(
            ID3Tag.frames(in: tag) == [
                ID3Frame(id: "TT2", text: "Title"), ID3Frame(id: "TXX", description: "k", text: "v"),
                ID3Frame(id: "COM", description: "", text: "note"),
                ID3Frame(id: "PIC", description: "c", data: [1, 2]),
            ])
    }

    @Test("unsynchronisation: the whole tag's in ID3v2.3, a frame's in ID3v2.4 (with its data length indicator)")
    func unsynchronisation() throws {
        let data: [UInt8] = [0xFF, 0xE0, 0xFF, 0x00, 0xFF, 0xFF, 0xFB, 1, 0xFF]
        let frames =
            B.frame(3, "PRIV", B.latin1("o") + [0] + data) + B.frame(3, "TIT2", [1, 0xFF, 0xFE] + B.utf16LE("ÿ"))
        let three = B.tag(3, flags: 0x80, B.unsynchronised(frames))
        #expect(three.count > 10 + frames.count)
        let expected = [ID3Frame(id: "PRIV", description: "o", data: data), ID3Frame(id: "TIT2", text: "ÿ")]
        #expect(ID3Tag.frames(in: three) == expected)

        let body = B.unsynchronised(B.latin1("o") + [0] + data)
        let four = B.tag(
            4, B.frame(4, "PRIV", B.syncsafe(2 + data.count) + body, flags: [0, 0x03]),
            B.frame(4, "TIT2", B.unsynchronised([1, 0xFF, 0xFE] + B.utf16LE("ÿ")), flags: [0, 0x02]))
        #expect(ID3Tag.frames(in: four) == expected)
    }

    @Test("an extended header is skipped (ID3v2.3: plain size without itself; ID3v2.4: syncsafe size with itself)")
    func extendedHeader() throws {
        let title = [ID3Frame(id: "TIT2", text: "x")]
        let three = B.tag(3, flags: 0x40, B.plain32(6) + [0, 0, 0, 0, 0, 0], B.frame(3, "TIT2", [0, 0x78]))
        #expect(ID3Tag.frames(in: three) == title)
        let four = B.tag(4, flags: 0x40, B.syncsafe(6) + [1, 0], B.frame(4, "TIT2", [0, 0x78]))
        #expect(ID3Tag.frames(in: four) == title)
        // An extended header longer than the tag: no frames.
        #expect(ID3Tag.frames(in: B.tag(4, flags: 0x40, B.syncsafe(100) + [1, 0])) == [])
    }

    @Test("frames with grouping, compression or encryption flags; content that does not fit its frame's layout")
    func frameFlagsAndOddContent() throws {
        let tag = B.tag(
            4, B.frame(4, "TIT2", [7, 0, 0x61], flags: [0, 0x40]),  // a group id, then the text
            B.frame(4, "TIT3", [0, 0, 0, 9, 0x78, 0x9C], flags: [0, 0x09]),  // compressed: kept as stored
            B.frame(4, "TPE1", [9] + B.latin1("x")),  // an unknown text encoding
            B.frame(4, "TPE2", []), B.frame(4, "COMM", [0, 0x65]),  // empty; too short for its language
            B.frame(4, "PRIV", B.latin1("no terminator")))
        #expect(
            ID3Tag.frames(in: tag) == [
                ID3Frame(id: "TIT2", text: "a"), ID3Frame(id: "TIT3", data: [0, 0, 0, 9, 0x78, 0x9C]),
                ID3Frame(id: "TPE1", data: [9, 0x78]), ID3Frame(id: "TPE2", data: []),
                ID3Frame(id: "COMM", data: [0, 0x65]), ID3Frame(id: "PRIV", description: "no terminator", data: []),
            ])
    }

    @Test("not a tag: nil; a malformed frame ends the reading with the frames before it")
    func damage() throws {
        let good = B.frame(4, "TIT2", [0, 0x61])
        for bytes: [UInt8] in [
            [], B.latin1("ID3"), B.latin1("TAG") + [UInt8](repeating: 0x20, count: 125), B.tag(5, good),
            B.tag(1, good), [0x49, 0x44, 0x33, 4, 0xFF, 0, 0, 0, 0, 1], [0x49, 0x44, 0x33, 4, 0, 0, 0x80, 0, 0, 1],
            Array(B.tag(4, good).dropFirst()),
        ] {
            #expect(ID3Tag.frames(in: bytes) == nil, "\(bytes)")
        }
        let first = [ID3Frame(id: "TIT2", text: "a")]
        #expect(ID3Tag.frames(in: B.tag(4, good, B.frame(4, "tit2", [0, 0x62]), good)) == first)  // a bad id
        #expect(ID3Tag.frames(in: B.tag(4, good, B.latin1("TIT2") + [0, 0, 0x80, 0, 0, 0] + [0, 0x62])) == first)
        #expect(ID3Tag.frames(in: B.tag(4, good, B.latin1("TIT2") + B.syncsafe(50) + [0, 0, 0, 0x62])) == first)
        #expect(ID3Tag.frames(in: B.tag(4, good, B.latin1("TI"))) == first)
        #expect(ID3Tag.frames(in: B.tag(2, flags: 0x40, B.frame(2, "TT2", [0, 0x61]))) == [])  // 2.2's compression
    }

    /// A tag of every kind of frame above, in ID3v2.3 with unsynchronisation.
    static let sample: [UInt8] = B.tag(
        3, flags: 0x80,
        B.unsynchronised(
            B.frame(3, "TXXX", [1, 0xFF, 0xFE] + B.utf16LE("k") + [0, 0, 0xFF, 0xFE] + B.utf16LE("Größe"))
                + B.frame(3, "PRIV", B.latin1("owner") + [0] + (0..<160).map { UInt8($0 * 3 & 0xFF) })
                + B.frame(3, "WXXX", [0, 0] + B.latin1("https://a.example"))
                + B.frame(3, "COMM", [0] + B.latin1("eng") + [0, 0x63])))

    @Test("every prefix of a tag: no trap; the frames that fit, as the whole tag reads them")
    func prefixes() throws {
        let whole = try #require(ID3Tag.frames(in: Self.sample))
        #expect(whole.count == 4)
        for length in 0...Self.sample.count {
            let frames = ID3Tag.frames(in: Array(Self.sample.prefix(length)))
            if length < 10 {
                #expect(frames == nil)
            } else {
                let read = try #require(frames, "prefix of \(length) bytes")
                #expect(read == Array(whole.prefix(read.count)), "prefix of \(length) bytes")
            }
        }
    }

    @Test("random damage: bytes changed, dropped and added, and random bodies after a valid header; no trap")
    func randomDamage() throws {
        var random = SplitMix64(seed: 0x1D3)
        var parsed = 0
        for _ in 0..<3000 {
            var bytes = Self.sample
            for _ in 0..<1 + random.below(6) {
                let index = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[index] = UInt8(random.below(256))
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(random.below(256)), at: index)
                }
            }
            if ID3Tag.frames(in: bytes) != nil { parsed += 1 }
            _ = ID3Tag.frames(withoutIdentifier: Array(bytes.dropFirst(5)))
            let body = (0..<random.below(300)).map { _ in UInt8(random.below(256)) }
            let header = B.latin1("ID3") + [UInt8(2 + random.below(3)), 0, UInt8(random.below(256))]
            #expect(ID3Tag.frames(in: header + B.syncsafe(random.below(400)) + body) != nil)
        }
        // Most damage leaves the header alone: the reading goes on to the damage.
        #expect(parsed > 1000)
    }

    @Test("a tag without its first five bytes (FFmpeg 5.1's MPEG-TS demuxer drops them): read as the whole tag is")
    func withoutIdentifier() throws {
        let large = (0..<300).map { UInt8($0 & 0xFF) }
        let tags = [
            Self.sample, B.tag(4, B.frame(4, "TXXX", [3, 0x61, 0, 0x62]), B.frame(4, "PRIV", [0x6F, 0] + large)),
            B.tag(3, B.frame(3, "PRIV", [0x6F, 0] + large), B.frame(3, "TIT2", [0, 0x61])),
        ]
        for tag in tags {
            let whole = try #require(ID3Tag.frames(in: tag))
            #expect(ID3Tag.frames(withoutIdentifier: Array(tag.dropFirst(5))) == whole)
        }
        // Not the rest of one whole tag: nil.
        for bytes: [UInt8] in [
            [], [0, 0, 0, 0], [0, 0, 0, 0, 9, 1], [0, 0, 0, 0x80, 0, 0], Array(Self.sample.dropFirst(4)),
        ] {
            #expect(ID3Tag.frames(withoutIdentifier: bytes) == nil, "\(bytes)")
        }
    }
}
