import Foundation
import Loading
import PlaybackTesting

/// How the loading tests read: whole sources or parts of them, the served files' local copies, blocking work on a
/// thread of its own.
enum Reading {
    /// Bytes from `source`'s position, in reads of at most `chunk` bytes, until `limit` bytes, the end, or an
    /// error; `afterEach` runs after every read that returned bytes. Returns what came, and the error if one ended it.
    static func read(
        _ source: RemoteByteSource, limit: Int = .max, chunk: Int = 32 << 10, afterEach: () -> Void = {}
    ) -> (bytes: [UInt8], error: MediaError?) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while out.count < limit {
            let wanted = min(chunk, limit - out.count)
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(MediaError) -> Int in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
                }
            }
            switch result {
            case .failure(let error): return (out, error)
            case .success(0): return (out, nil)
            case .success(let count):
                out += buffer[0..<count]
                afterEach()
            }
        }
        return (out, nil)
    }

    /// Every byte of `source` from its position to the end. - Throws: the read's `MediaError`.
    static func readAll(
        _ source: RemoteByteSource, chunk: Int = 32 << 10, afterEach: () -> Void = {}
    ) throws(MediaError) -> [UInt8] {
        let (bytes, error) = read(source, chunk: chunk, afterEach: afterEach)
        if let error { throw error }
        return bytes
    }

    /// `count` bytes of `source` from `offset` (fewer at the end). - Throws: the read's `MediaError`.
    static func read(_ source: RemoteByteSource, at offset: Int64, count: Int) throws(MediaError) -> [UInt8] {
        try source.seek(to: offset)
        let (bytes, error) = read(source, limit: count)
        if let error { throw error }
        return bytes
    }

    /// Where `bytes` first differ from `expected` (or how their lengths differ), nil when they are equal. Tests
    /// compare megabytes with it: `#expect(a == b)` on arrays that differ makes Swift Testing diff them, which takes
    /// hours for a few megabytes.
    static func difference(_ bytes: [UInt8], _ expected: some Collection<UInt8>) -> String? {
        let expected = Array(expected)
        if bytes == expected { return nil }
        if let index = (0..<min(bytes.count, expected.count)).first(where: { bytes[$0] != expected[$0] }) {
            return "byte \(index) differs (\(bytes[index]), expected \(expected[index])) of \(bytes.count)"
        }
        return bytes.count == expected.count ? nil : "\(bytes.count) bytes, expected \(expected.count)"
    }

    /// The bytes of a file the shared server serves, from its local copy.
    static func local(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestHTTPServer.localPath(name))))
    }

    /// Runs blocking work on a thread of its own (reads block; never on the cooperative pool).
    /// Whether `condition` held within `seconds` (looked at every 10 ms).
    static func poll(seconds: Double, _ condition: () -> Bool) async -> Bool {
        (try? await waitUntil("", timeout: .seconds(seconds), interval: .milliseconds(10), condition)) != nil
    }

    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// Bytes of the regular files under `directory` (recursively), and how many there are.
    static func filesUnder(_ directory: String) -> (bytes: Int, count: Int) {
        var bytes = 0
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while enumerator?.nextObject() != nil {
            let attributes = enumerator?.fileAttributes
            guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            bytes += attributes?[.size] as? Int ?? 0
            count += 1
        }
        return (bytes, count)
    }
}
