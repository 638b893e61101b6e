/// A server as connections know it: scheme, host and port (RFC 6454's origin), the key of the loader's idle
/// connections. `http://Example.com/a.mp4` and `http://example.com:80/b.mp4` are one origin.
public struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// The host, lowercased (an IPv6 address keeps its brackets).
    public let host: String
    /// The port, the scheme's default (80, 443) when the URL names none.
    public let port: Int

    /// The origin of an http(s) `url`; nil for any other scheme or a URL without a host.
    public init?(url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = Substring(authority)
        var port = scheme == "https" ? 443 : 80
        // The port follows the last colon, unless that colon is inside an IPv6 address's brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            guard let given = Int(authority[authority.index(after: colon)...]), (1...65535).contains(given) else {
                return nil
            }
            port = given
            host = authority[..<colon]
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host):\(port)" }
}
