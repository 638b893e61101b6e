/// The key table of a QuickTime timed metadata track (sample entry `mebx`, what AVAssetWriter writes): local key ids
/// to keys (namespace and name), read from the track's sample description in the moov; it decodes the track's
/// samples (boxed items: each a box whose type is a local key id, holding `data` atoms) into items.
///
/// FFmpeg 5.1 hands the track's samples over as opaque packets without the table: the table is read from the moov's
/// bytes (``read(from:url:trackID:)``).
public struct MetadataKeyTable: Sendable, Equatable {
    /// A key: its namespace (`mdta`, ...) and its name; the well-known data type its `dtyp` declares, if any.
    struct Key: Sendable, Equatable {
        var keySpace: String
        var name: String
        var declaredType: Int?
    }

    let keys: [UInt32: Key]

    /// The number of keys in the table.
    public var count: Int { keys.count }

    /// The table of the track `trackID` of `moov` (a `moov` box's body), nil when that track has no `mebx` sample
    /// entry with a `keys` box.
    static func table(moov: MP4Box, trackID: UInt32) -> MetadataKeyTable? {
        guard let track = MP4TrackHeader.tracks(of: moov).first(where: { $0.trackID == trackID }),
            let stsd = track.trak.descendant(["mdia", "minf", "stbl", "stsd"])
        else { return nil }
        var fields = MP4Fields(stsd.body)
        guard fields.skip(8),
            let entry = MP4Box.children(of: fields.rest).first(where: { $0.type == MP4Box.type("mebx") })
        else { return nil }
        var entryFields = MP4Fields(entry.body)
        guard entryFields.skip(8),  // reserved, data_reference_index
            let keysBox = MP4Box.children(of: entryFields.rest).first(where: { $0.type == MP4Box.type("keys") })
        else { return nil }
        var keys: [UInt32: Key] = [:]
        for declaration in MP4Box.children(of: keysBox.body) {
            guard var keyd = declaration.child("keyd").map({ MP4Fields($0.body) }), let space = keyd.uint32() else {
                continue
            }
            var declaredType: Int?
            if var dtyp = declaration.child("dtyp").map({ MP4Fields($0.body) }), dtyp.uint32() == 0 {
                declaredType = dtyp.uint32().map { Int($0) }
            }
            keys[declaration.type] = Key(
                keySpace: MP4Box.name(space), name: String(decoding: keyd.rest, as: UTF8.self),
                declaredType: declaredType)
        }
        return MetadataKeyTable(keys: keys)
    }

    /// The items of a sample: each boxed item whose local key id the table declares, each of its `data` atoms an
    /// item (an item box of an unknown key, or without a `data` atom, is skipped). Empty for an empty sample.
    public func items(in sample: [UInt8]) -> [TimedMetadataItem] {
        MP4Box.children(of: sample[...]).flatMap { box -> [TimedMetadataItem] in
            guard let key = keys[box.type] else { return [] }
            return box.children("data").compactMap { data in
                var fields = MP4Fields(data.body)
                guard let indicator = fields.uint32(), fields.skip(4) else { return nil }  // type, locale
                let type = Int(indicator & 0x00FF_FFFF)
                return TimedMetadataItem(
                    keySpace: key.keySpace, key: key.name, dataType: type,
                    value: Self.value(Array(fields.rest), type: type))
            }
        }
    }

    /// A value of well-known type `type` (QuickTime File Format's table of well-known types).
    static func value(_ bytes: [UInt8], type: Int) -> TimedMetadataItem.Value {
        let unsigned = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch (type, bytes.count) {
        case (1, _): return .string(String(decoding: bytes, as: UTF8.self))
        case (2, _) where bytes.count % 2 == 0:
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case (21, 1...8):
            let shift = UInt64(64 - 8 * bytes.count)
            return .integer(Int64(bitPattern: unsigned << shift) >> Int64(shift))
        case (22, 1...8) where unsigned <= UInt64(Int64.max): return .integer(Int64(unsigned))
        case (23, 4): return .float(Double(Float(bitPattern: UInt32(unsigned))))
        case (24, 8): return .float(Double(bitPattern: unsigned))
        default: return .data(bytes)
        }
    }
}
