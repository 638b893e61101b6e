import CCurl

/// libcurl's result codes as the media layer's typed errors.
enum CurlError {
    /// The `MediaError` for a transfer of `url` that ended with `code`; `detail` is libcurl's error buffer.
    static func mediaError(_ code: CURLcode, url: String, detail: String) -> MediaError {
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: MediaError.Kind
        var operation = MediaError.Operation.read
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .hostNotFound
            operation = .connect
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
            operation = .connect
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS:
            kind = .tlsFailure
            operation = .connect
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            kind = .connectionLost
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidArgument
            operation = .open
        default:
            kind = .readFailed
        }
        return MediaError(kind, url: url, operation: operation, code: Int32(code.rawValue), reason: reason)
    }

    /// Whether a transfer that failed with `kind` may be resumed from where it stopped.
    static func isResumable(_ kind: MediaError.Kind) -> Bool {
        kind == .connectionLost
    }
}
