/// Big-endian fields of an MP4 (ISO BMFF) box's bytes, read with their bounds checked: a read past the end gives nil
/// (a box whose fields lie about their sizes is skipped, never read out of bounds).
struct MP4Fields {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { bytes[offset...] }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, bytes.endIndex - offset >= count else { return false }
        offset += count
        return true
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint(_ width: Int) -> UInt64? {
        guard let field = bytes(width) else { return nil }
        return field.reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func uint32() -> UInt32? { uint(4).map { UInt32($0) } }

    /// A NUL-terminated UTF-8 string (the terminator read and dropped); nil without a terminator.
    mutating func cString() -> String? {
        guard let end = rest.firstIndex(of: 0) else { return nil }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end + 1
        return text
    }
}

/// One box: its four-character type and its body (the bytes after its header).
struct MP4Box {
    var type: UInt32
    var body: ArraySlice<UInt8>

    /// The type as text (`moov`, `emsg`, ...).
    var name: String { MP4Box.name(type) }

    static func name(_ type: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
    }

    static func type(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The boxes one after another in `bytes`, up to the first whose size is impossible (smaller than its header or
    /// past the end of `bytes`): what follows it cannot be found. Size 0 is a box to the end; size 1 a 64-bit size.
    static func children(of bytes: ArraySlice<UInt8>) -> [MP4Box] {
        var boxes: [MP4Box] = []
        var fields = MP4Fields(bytes)
        while let size32 = fields.uint32(), let type = fields.uint32() {
            var header = 8
            var size = Int64(size32)
            if size32 == 1 {
                guard let large = fields.uint(8), large <= UInt64(Int64.max) else { break }
                size = Int64(large)
                header = 16
            } else if size32 == 0 {
                size = Int64(header + fields.rest.count)
            }
            guard size >= Int64(header), let body = fields.bytes(Int(clamping: size) - header) else { break }
            boxes.append(MP4Box(type: type, body: body))
        }
        return boxes
    }

    /// The first child of `type`.
    func child(_ type: StaticString) -> MP4Box? {
        let wanted = MP4Box.type(type)
        return MP4Box.children(of: body).first { $0.type == wanted }
    }

    /// The children of `type`.
    func children(_ type: StaticString) -> [MP4Box] {
        let wanted = MP4Box.type(type)
        return MP4Box.children(of: body).filter { $0.type == wanted }
    }

    /// The box at the end of `path` from this one (`["mdia", "minf", "stbl"]`).
    func descendant(_ path: [StaticString]) -> MP4Box? {
        var box: MP4Box? = self
        for step in path { box = box?.child(step) }
        return box
    }
}

/// A moov's facts about one track: its id, its media timescale.
struct MP4TrackHeader {
    var trackID: UInt32
    var timescale: UInt32
    var trak: MP4Box

    /// The tracks of a `moov` box (a track without a readable `tkhd` or `mdhd` is left out).
    static func tracks(of moov: MP4Box) -> [MP4TrackHeader] {
        moov.children("trak").compactMap { trak in
            guard var tkhd = trak.child("tkhd").map({ MP4Fields($0.body) }),
                var mdhd = trak.descendant(["mdia", "mdhd"]).map({ MP4Fields($0.body) }),
                let tkhdVersion = tkhd.uint(1), tkhd.skip(3 + (tkhdVersion == 1 ? 16 : 8)), let id = tkhd.uint32(),
                let mdhdVersion = mdhd.uint(1), mdhd.skip(3 + (mdhdVersion == 1 ? 16 : 8)), let scale = mdhd.uint32(),
                scale > 0
            else { return nil }
            return MP4TrackHeader(trackID: id, timescale: scale, trak: trak)
        }
    }
}
