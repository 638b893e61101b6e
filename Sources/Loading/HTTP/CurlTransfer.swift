import CCurl
import Foundation
import Locking

/// One HTTP transfer: its libcurl easy handle (owned, cleaned up when the transfer ends), the response head
/// parsed from the header lines, and the sink it feeds. Everything but ``isCancelled`` is touched only on the
/// loader's thread (inside libcurl's callbacks or the loader's loop).
final class CurlTransfer: TransferHandle, @unchecked Sendable {
    let request: TransferRequest
    private let sink: any TransferSink
    private weak var loader: HTTPLoader?
    private(set) var easy: UnsafeMutableRawPointer?
    private var headers: [String: String] = [:]
    private var status = 0
    private var headDelivered = false
    /// An error decided here (an HTTP status, a sink's refusal), reported instead of libcurl's abort code.
    private var error: MediaError?
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private var finished = false
    private let cancelled = Locked(false)
    /// What it asks: the request's bytes (`GET`), or a `HEAD`, whose answer is only a connection kept whatever its
    /// status (``HTTPLoader/preconnect(_:headers:)``), or the response head for its sink (``HTTPLoader/probe(_:completion:)``).
    enum Method: Sendable {
        case get, preconnect, head
    }

    let method: Method
    /// Whether it is a `HEAD` (no body).
    var headOnly: Bool { method != .get }
    /// The server it goes to (the connection's key).
    let origin: HTTPOrigin?
    /// Seconds the server said it keeps an idle connection (`Keep-Alive: timeout=N`), when it said.
    private(set) var serverKeepAlive: Double?
    /// Connections libcurl opened for it that the loader counted so far.
    private var connectionsCounted = 0

    init(request: TransferRequest, sink: any TransferSink, loader: HTTPLoader, method: Method = .get) {
        self.request = request
        self.sink = sink
        self.loader = loader
        self.method = method
        origin = HTTPOrigin(url: request.url)
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    // MARK: TransferHandle (any thread)

    func setPaused(_ paused: Bool) { loader?.setPaused(self, paused) }

    func setMaximumRate(_ bytesPerSecond: Int64?) { loader?.setMaximumRate(self, bytesPerSecond) }

    func cancel() {
        guard
            !cancelled.withLock({
                let was = $0
                $0 = true
                return was
            })
        else { return }
        loader?.cancel(self)
    }

    // MARK: Loader's thread

    /// Makes the easy handle for the request, reusing a connection idle at most `keepAlive` seconds. False when
    /// libcurl cannot (out of memory).
    func prepare(_ configuration: HTTPLoader.Configuration, keepAlive: Double) -> Bool {
        guard let easy = curl_easy_init() else { return false }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = playctl_curl_set_string(easy, CURLOPT_URL, request.url)
        _ = playctl_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = playctl_curl_set_long(easy, CURLOPT_MAXREDIRS, 8)
        _ = playctl_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = playctl_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        _ = playctl_curl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = playctl_curl_set_long(easy, CURLOPT_LOW_SPEED_TIME, configuration.stallTimeout)
        _ = playctl_curl_set_string(easy, CURLOPT_USERAGENT, configuration.userAgent)
        _ = playctl_curl_set_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = playctl_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "identity")
        // A kept connection idle longer than this is closed rather than reused (libcurl's default is 118 s).
        _ = playctl_curl_set_long(easy, CURLOPT_MAXAGE_CONN, max(Int(keepAlive.rounded(.down)), 0))
        if configuration.tcpKeepAliveIdle > 0 {
            _ = playctl_curl_set_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
            _ = playctl_curl_set_long(easy, CURLOPT_TCP_KEEPIDLE, configuration.tcpKeepAliveIdle)
            _ = playctl_curl_set_long(easy, CURLOPT_TCP_KEEPINTVL, configuration.tcpKeepAliveIdle)
        }
        // Over TLS, wait for a connection being set up (a preconnect's) to say whether it multiplexes (HTTP/2 by
        // ALPN) rather than open another beside it.
        if origin?.scheme == "https" { _ = playctl_curl_set_long(easy, CURLOPT_PIPEWAIT, 1) }
        if headOnly { _ = playctl_curl_set_long(easy, CURLOPT_NOBODY, 1) }
        if let authorities = configuration.certificateAuthorities {
            _ = playctl_curl_set_string(easy, CURLOPT_CAINFO, authorities)
        }
        errorBuffer.withUnsafeMutableBufferPointer { buffer in
            _ = playctl_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
        }
        if request.isRange {
            let end = request.end.map { String($0 - 1) } ?? ""
            _ = playctl_curl_set_string(easy, CURLOPT_RANGE, "\(request.start)-\(end)")
        }
        var lines = HTTPHeaderFields.lines(defaults: configuration.headers, request: request.headers)
        if let validator = request.validator, let value = validator.etag ?? validator.lastModified {
            lines.append("If-Range: \(value)")
        }
        if let conditional = request.conditional {
            if let etag = conditional.etag { lines.append("If-None-Match: \(etag)") }
            if let date = conditional.lastModified { lines.append("If-Modified-Since: \(date)") }
        }
        for line in lines { requestHeaders = curl_slist_append(requestHeaders, line) }
        if requestHeaders != nil { _ = playctl_curl_set_list(easy, CURLOPT_HTTPHEADER, requestHeaders) }
        _ = playctl_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeader)
        _ = playctl_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = playctl_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWrite)
        _ = playctl_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = playctl_curl_set_pointer(easy, CURLOPT_PRIVATE, context)
        return true
    }

    func applyPause(_ paused: Bool) {
        guard let easy else { return }
        curl_easy_pause(easy, paused ? playctl_curl_pause_recv() : playctl_curl_pause_cont())
    }

    /// One header line (the status line of each response, then its fields, then an empty line).
    func header(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new response (the first, or after a redirect or a 100 Continue): start over.
            headers.removeAll()
            status = Int(trimmed.split(separator: " ").dropFirst().first ?? "") ?? 0
            return true
        }
        if !trimmed.isEmpty {
            if let colon = trimmed.firstIndex(of: ":") {
                let name = trimmed[..<colon].lowercased()
                let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                // A field given on several lines is one list (Cache-Control: no-cache / Cache-Control: max-age=0).
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
                if name == "keep-alive", let timeout = Self.keepAliveTimeout(value) { serverKeepAlive = timeout }
            }
            return true
        }
        // The connection is there: counted now, not only when the transfer ends.
        loader?.countConnections(newConnections())
        // A preconnect keeps whatever answer came (an error status included): its connection is what it was for.
        if method == .preconnect { return true }
        // The end of one response's head. Interim and redirect responses are skipped.
        if status < 200 || (300..<400).contains(status) && headers["location"] != nil { return true }
        if status >= 400 {
            error = MediaError(
                .httpStatus, url: request.url, operation: .read, code: Int32(status),
                reason: "the server answered \(status)\(Self.statusText(status))")
            return false
        }
        headDelivered = true
        return sink.transferReceived(head: makeHead())
    }

    /// Body bytes.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isCancelled else { return false }
        sink.transferReceived(bytes)
        return true
    }

    /// The transfer ended with libcurl's `code` (the loader removed it from the multi handle).
    func finish(code: CURLcode) {
        guard !finished else { return }
        finished = true
        let outcome: MediaError?
        if let error {
            outcome = error
        } else if code == CURLE_OK {
            outcome = nil
        } else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            outcome = CurlError.mediaError(code, url: request.url, detail: detail)
        }
        release()
        if !isCancelled { sink.transferFinished(outcome) }
    }

    /// Frees the easy handle (after the loader removed it from the multi handle).
    func release() {
        finished = true
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let requestHeaders { curl_slist_free_all(requestHeaders) }
        requestHeaders = nil
    }

    /// The head of the final response.
    private func makeHead() -> ResponseHead {
        var start: Int64 = 0
        var total: Int64?
        if let range = headers["content-range"] {
            // "bytes 100-199/1000" (or "/*" when the length is unknown)
            let parts = range.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "/" })
            if parts.count >= 4 {
                start = Int64(parts[1]) ?? 0
                total = Int64(parts[3])
            }
        } else if status == 200, let length = headers["content-length"].flatMap({ Int64($0) }) {
            total = length
        }
        let validator = ResourceValidator(etag: headers["etag"], lastModified: headers["last-modified"])
        let ranges = status == 206 || headers["accept-ranges"]?.lowercased() == "bytes"
        let now = Date().timeIntervalSince1970
        return ResponseHead(
            status: status, start: status == 206 ? start : 0, totalLength: total,
            validator: validator, acceptsRanges: ranges, caching: CacheDirectives(fields: headers, responseTime: now))
    }

    /// The connections libcurl opened for it since the last call (`CURLINFO_NUM_CONNECTS`; the loader's thread).
    func newConnections() -> Int {
        guard let easy else { return 0 }
        var value = 0
        guard playctl_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &value) == CURLE_OK else { return 0 }
        defer { connectionsCounted = max(value, connectionsCounted) }
        return max(value - connectionsCounted, 0)
    }

    /// The `timeout` of a `Keep-Alive` field's value (`timeout=75, max=1000`), in seconds.
    static func keepAliveTimeout(_ value: String) -> Double? {
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "timeout", let seconds = Double(pair[1]), seconds >= 0 {
                return seconds
            }
        }
        return nil
    }

    private static func statusText(_ status: Int) -> String {
        switch status {
        case 401: return " Unauthorized"
        case 403: return " Forbidden"
        case 404: return " Not Found"
        case 410: return " Gone"
        case 416: return " Range Not Satisfiable"
        case 429: return " Too Many Requests"
        case 500: return " Internal Server Error"
        case 502: return " Bad Gateway"
        case 503: return " Service Unavailable"
        case 504: return " Gateway Timeout"
        default: return ""
        }
    }
}

private func curlHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return transfer.header(String(decoding: bytes, as: UTF8.self)) ? size * count : 0
}

private func curlWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.write(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}
