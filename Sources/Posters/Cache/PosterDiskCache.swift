import Foundation
import Locking
import MediaIO

/// Posters kept on disk between runs, encoded as PNG, bounded in bytes (least recently used out first: a file's
/// modification time is its last use). Each file holds a small header (the key, for collisions, and the poster's
/// facts) then the PNG; one that does not read back whole (cut, damaged, another key) is deleted and made again.
public final class PosterDiskCache: Sendable {
    public struct Statistics: Sendable, Equatable {
        public var files = 0
        public var bytes = 0
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        /// Files that did not read back (deleted).
        public var damaged = 0
    }

    private struct Entry {
        var size: Int
        var lastUse: Double
    }

    public let directory: String
    public let byteLimit: Int
    private let state: Locked<(entries: [String: Entry], statistics: Statistics)>
    private static let magic: [UInt8] = Array("PCP1".utf8)

    /// A cache in `directory` (made if missing) of at most `byteLimit` bytes; what a previous run left is kept.
    /// - Throws: `MediaError` naming the directory when it cannot be made.
    public init(directory: String, byteLimit: Int = 64 << 20) throws(MediaError) {
        self.directory = directory
        self.byteLimit = max(byteLimit, 0)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MediaError(.permissionDenied, url: directory, operation: .write, reason: "cannot make the directory")
        }
        var entries: [String: Entry] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasSuffix(".poster") {
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            let size = (attributes?[.size] as? Int) ?? 0
            let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            entries[name] = Entry(size: size, lastUse: date)
        }
        var statistics = Statistics()
        statistics.files = entries.count
        statistics.bytes = entries.values.reduce(0) { $0 + $1.size }
        state = Locked((entries, statistics))
        trim()
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The file name of `key`: FNV-1a 64 of its description.
    static func name(of key: PosterKey) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.description.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16) + ".poster"
    }

    /// The poster of `key` in `format`, if a whole file of it is kept.
    func load(_ key: PosterKey, format: PosterRequest.Format) -> Poster? {
        let name = Self.name(of: key)
        let path = directory + "/" + name
        guard state.withLock({ $0.entries[name] != nil }), let data = FileManager.default.contents(atPath: path)
        else {
            state.withLock { $0.statistics.misses += 1 }
            return nil
        }
        guard let poster = Self.decode([UInt8](data), key: key, format: format) else {
            remove(name, damaged: true)
            state.withLock { $0.statistics.misses += 1 }
            return nil
        }
        let now = Date().timeIntervalSince1970
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
        state.withLock { state in
            state.entries[name]?.lastUse = now
            state.statistics.hits += 1
        }
        return poster
    }

    /// Keeps `poster` (as RGBA PNG), then trims to the bound.
    func store(_ poster: Poster) {
        guard let bytes = Self.encode(poster) else { return }
        let name = Self.name(of: poster.key)
        let path = directory + "/" + name
        let temporary = path + ".tmp\(UInt32.random(in: 0...UInt32.max))"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)),
            rename(temporary, path) == 0
        else {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        state.withLock { state in
            if let old = state.entries[name] { state.statistics.bytes -= old.size } else { state.statistics.files += 1 }
            state.entries[name] = Entry(size: bytes.count, lastUse: Date().timeIntervalSince1970)
            state.statistics.bytes += bytes.count
        }
        trim()
    }

    private func trim() {
        let victims = state.withLock { state -> [String] in
            var victims: [String] = []
            var bytes = state.statistics.bytes
            for (name, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse })
            where bytes > byteLimit {
                victims.append(name)
                bytes -= entry.size
            }
            return victims
        }
        for name in victims { remove(name, damaged: false) }
    }

    private func remove(_ name: String, damaged: Bool) {
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: name) else { return }
            state.statistics.files -= 1
            state.statistics.bytes -= entry.size
            if damaged { state.statistics.damaged += 1 } else { state.statistics.evictions += 1 }
        }
    }

    // MARK: Format

    private static func encode(_ poster: Poster) -> [UInt8]? {
        var image = poster.image
        if image.pixelFormat != .rgba {
            // BGRA to RGBA: swap red and blue.
            for i in stride(from: 0, to: image.bytes.count, by: 4) { image.bytes.swapAt(i, i + 2) }
            image.pixelFormat = .rgba
        }
        guard let png = try? PNGEncoder.encode(image) else { return nil }
        let key = Array(poster.key.description.utf8)
        var out = magic
        for value in [
            Int64(key.count), Int64(poster.sourceWidth), Int64(poster.sourceHeight), Int64(poster.decodedWidth),
            Int64(poster.decodedHeight), poster.time.value, Int64(poster.time.timescale),
        ] {
            withUnsafeBytes(of: value.littleEndian) { out += $0 }
        }
        return out + key + png
    }

    private static func decode(_ bytes: [UInt8], key: PosterKey, format: PosterRequest.Format) -> Poster? {
        let header = magic.count + 7 * 8
        guard bytes.count > header, Array(bytes[0..<magic.count]) == magic else { return nil }
        let values = (0..<7).map { i in
            bytes[(magic.count + i * 8)..<(magic.count + i * 8 + 8)].withUnsafeBytes {
                Int64(littleEndian: $0.loadUnaligned(as: Int64.self))
            }
        }
        let keyLength = Int(values[0])
        guard keyLength >= 0, bytes.count > header + keyLength,
            Array(bytes[header..<(header + keyLength)]) == Array(key.description.utf8),
            let timescale = Int32(exactly: values[6]), timescale > 0
        else { return nil }
        let png = Array(bytes[(header + keyLength)...])
        guard let demuxer = try? Demuxer(url: "poster.png", source: MemoryByteSource(png)),
            let frame = try? StillDecoder.decodeImage(demuxer),
            let image = try? FrameConverter().convert(frame, to: format.pixelFormat)
        else { return nil }
        return Poster(
            image: image, sourceWidth: Int(values[1]), sourceHeight: Int(values[2]), decodedWidth: Int(values[3]),
            decodedHeight: Int(values[4]), time: MediaTime(value: values[5], timescale: timescale), key: key,
            timings: PosterTimings(), fromCache: true)
    }
}
