import Foundation

/// What the test server wrote on the wire: nginx's access log (`PLAYCTL_HTTP_LOG`, one line per response: port,
/// status, bytes sent with the headers, request, Range header, connection number and its requests), for tests that
/// compare the bytes on the wire with what the client needed or kept, or count the connections it opened.
extension TestHTTPServer {
    /// One response as the server logged it.
    public struct LoggedResponse: Sendable, Equatable {
        public var port: Int
        public var status: Int
        /// Bytes written to the socket, headers included (a response cut off counts what went out).
        public var bytesSent: Int64
        public var request: String
        public var range: String
        /// nginx's number of the connection it came on (`$connection`), 0 when the log has none.
        public var connection: Int = 0
        /// How many requests that connection had served, this one included (`$connection_requests`).
        public var connectionRequests: Int = 0
    }

    /// The access log's path, when the server writes one.
    public static var accessLog: String? { ProcessInfo.processInfo.environment["PLAYCTL_HTTP_LOG"] }

    /// The responses logged so far whose request line contains `marker` (give each test's URLs a query of its own:
    /// the server ignores it, and other suites share the log).
    public static func responses(containing marker: String) -> [LoggedResponse] {
        guard let path = accessLog, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> LoggedResponse? in
            guard line.contains(marker) else { return nil }
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            let fields = quoted.first?.split(separator: " ") ?? []
            guard fields.count >= 3, quoted.count >= 4, let port = Int(fields[0]), let status = Int(fields[1]),
                let sent = Int64(fields[2])
            else { return nil }
            var response = LoggedResponse(
                port: port, status: status, bytesSent: sent, request: String(quoted[1]), range: String(quoted[3]))
            let connection = quoted.count > 4 ? quoted[4].split(separator: " ") : []
            if connection.count >= 2 {
                response.connection = Int(connection[0]) ?? 0
                response.connectionRequests = Int(connection[1]) ?? 0
            }
            return response
        }
    }

    /// The responses containing `marker` once `count` of them are logged (nginx logs a response when it ends),
    /// waiting up to `seconds` for them (by default 30 s, a hang detector, not a judgement of speed).
    public static func responses(
        containing marker: String, atLeast count: Int, within seconds: Double = 30
    ) async
        -> [LoggedResponse]
    {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let found = responses(containing: marker)
            if found.count >= count || Date() >= deadline { return found }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}
