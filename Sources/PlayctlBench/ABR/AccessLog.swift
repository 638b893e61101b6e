import Foundation

/// scripts/netns.sh's nginx access log (`PLAYCTL_HTTP_LOG`): one line per response, `port status bytes_sent
/// "request" "range"`. `bench --abr` notes its length before a run and reads the responses written after.
struct AccessLog: Sendable {
    /// One response.
    struct Response: Sendable, Equatable {
        var port: Int
        var status: Int
        /// What nginx wrote to the socket for it, headers included.
        var bytesSent: Int64
        /// The request's path without the leading slash (`ladder/long-ts/v0/seg000.ts`).
        var path: String
    }

    /// The log file.
    var path: String

    /// The log named by `PLAYCTL_HTTP_LOG`, when set.
    static var current: AccessLog? {
        ProcessInfo.processInfo.environment["PLAYCTL_HTTP_LOG"].map(AccessLog.init(path:))
    }

    /// The log's length now: where the next run's responses start.
    func mark() -> UInt64 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The responses on `port` logged after `mark`. nginx logs a response when it ends, so the caller waits for the
    /// client to have exited first.
    func responses(since mark: UInt64, port: Int) -> [Response] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        try? handle.seek(toOffset: mark)
        let data = (try? handle.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap(Self.parse)
            .filter { $0.port == port }
    }

    /// `18030 200 1318001 "GET /ladder/long-ts/v3/seg000.ts HTTP/1.1" "-"` as a response; nil for another line.
    static func parse(_ line: Substring) -> Response? {
        let fields = line.split(separator: " ", maxSplits: 5)
        guard fields.count >= 5, let port = Int(fields[0]), let status = Int(fields[1]),
            let bytes = Int64(fields[2])
        else { return nil }
        let target = fields[4]
        guard target.hasPrefix("/") else { return nil }
        var path = String(target.dropFirst())
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        return Response(port: port, status: status, bytesSent: bytes, path: path)
    }
}
