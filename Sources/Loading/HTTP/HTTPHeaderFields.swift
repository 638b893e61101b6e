/// HTTP header fields as a loader sends them: merged case-insensitively (a later field replaces an earlier one of
/// the same name), checked (a name is an RFC 9110 token; a value holds no CR, LF or NUL, so no field can smuggle
/// another in), and kept away from the fields the loader itself decides (ranges and conditions).
public enum HTTPHeaderFields {
    /// Fields the loader writes itself: a caller's field of one of these names is not sent.
    public static let reservedNames: Set<String> = [
        "range", "if-range", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since",
        "content-length", "transfer-encoding", "connection",
    ]

    /// `base` with the fields of `more` added; a field of `more` replaces the field of `base` with the same name in
    /// any case.
    public static func merging(_ base: [String: String], _ more: [String: String]) -> [String: String] {
        var out = base
        for (name, value) in more {
            for old in out.keys where old.lowercased() == name.lowercased() { out.removeValue(forKey: old) }
            out[name] = value
        }
        return out
    }

    /// Whether `name` is a token (RFC 9110 section 5.6.2) and `value` holds no CR, LF or NUL.
    public static func isValid(name: String, value: String) -> Bool {
        let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)
        let nameOK =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || tokenSymbols.contains(byte)
            }
        return nameOK && !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// Parses `Name: value` (as `curl -H` takes it); nil when it is not a valid field.
    public static func parse(_ line: String) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = String(line[..<colon])
        let value = String(line[line.index(after: colon)...]).trimmingSpaces()
        return isValid(name: name, value: value) ? (name, value) : nil
    }

    /// The request lines to send: `defaults` merged with `request`'s fields, valid ones only, none of the
    /// ``reservedNames``, in a stable order.
    public static func lines(defaults: [String: String], request: [String: String]) -> [String] {
        merging(defaults, request)
            .filter { isValid(name: $0.key, value: $0.value) && !reservedNames.contains($0.key.lowercased()) }
            .sorted { $0.key.lowercased() < $1.key.lowercased() }
            // libcurl sends "Name;" as a field with an empty value ("Name:" would remove it).
            .map { $0.value.isEmpty ? "\($0.key);" : "\($0.key): \($0.value)" }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
