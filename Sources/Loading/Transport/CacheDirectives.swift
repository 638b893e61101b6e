import Foundation

/// What a response says of how long it may be reused (RFC 9111): its `Cache-Control` directives, `Expires`, `Date`,
/// `Last-Modified` and `Age`, and when it arrived. The byte cache keeps it with the resource (memory and disk) and
/// decides from it whether held bytes may be used as they are (fresh), or only after the server confirmed them
/// (stale: a conditional request, `If-None-Match`/`If-Modified-Since`, whose 304 keeps them).
public struct CacheDirectives: Sendable, Hashable, Codable {
    /// `max-age`, in seconds.
    public var maxAge: Int?
    /// `no-cache`: reused only once the server confirmed it, every time.
    public var noCache = false
    /// `no-store`: never written to disk (and dropped from memory once no reader uses it).
    public var noStore = false
    /// `must-revalidate`: once stale, never used without the server's confirmation (not even when the server
    /// cannot be reached).
    public var mustRevalidate = false
    /// `Expires`, in seconds since 1970; an invalid date (as `0`) is a time in the past (RFC 9111 section 5.3).
    public var expires: Double?
    /// `Date`, `Last-Modified`, in seconds since 1970.
    public var date: Double?
    public var lastModified: Double?
    /// `Age`, in seconds.
    public var age: Int?
    /// When the response arrived, in seconds since 1970 (the wall clock).
    public var responseTime: Double
    /// The request fields `Vary` names, in lower case (`*`: any), nil without one: the response is reused only for
    /// requests with the same values of those fields (RFC 9111 section 4.1). The values are never stored.
    public var vary: [String]?

    public init(responseTime: Double) { self.responseTime = responseTime }

    /// The directives of a response whose header fields are `fields` (names in lower case), arrived at
    /// `responseTime`.
    public init(fields: [String: String], responseTime: Double) {
        self.responseTime = responseTime
        for directive in Self.directives(fields["cache-control"] ?? "") {
            switch directive.name {
            case "max-age": maxAge = directive.value.flatMap { Int($0) }.map { max($0, 0) } ?? 0
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            default: break
            }
        }
        if let text = fields["expires"] { expires = HTTPDate.parse(text) ?? 0 }
        date = fields["date"].flatMap(HTTPDate.parse)
        lastModified = fields["last-modified"].flatMap(HTTPDate.parse)
        age = fields["age"].flatMap { Int($0.trimmingCharacters(in: [" "])) }
        vary = fields["vary"].map { value in
            value.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]).lowercased() }.filter {
                !$0.isEmpty
            }
        }
    }

    /// What identifies a request's variant among the fields `vary` names: their values in `headers` (names in any
    /// case; an absent field counts as such). Kept in memory only.
    public static func variant(of headers: [String: String], varyingOn vary: [String]) -> String {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        return vary.sorted().map { name in lowered[name].map { "\(name): \($0)" } ?? "\(name)" }.joined(separator: "\n")
    }

    /// How long after it was made the response is fresh (RFC 9111 section 4.2.1): `max-age`, else `Expires` less
    /// `Date`, else heuristically a tenth of the time since `Last-Modified` (section 4.2.2), else 0.
    public var freshnessLifetime: Double {
        if let maxAge { return Double(maxAge) }
        let made = date ?? responseTime
        if let expires { return max(expires - made, 0) }
        if let lastModified, made > lastModified { return (made - lastModified) / 10 }
        return 0
    }

    /// The response's age at `now` (section 4.2.3, the request time taken as the response time).
    public func currentAge(at now: Double) -> Double {
        let apparent = max(0, responseTime - (date ?? responseTime))
        return max(apparent, Double(age ?? 0)) + max(now - responseTime, 0)
    }

    /// Whether it may be used at `now` without asking the server: not `no-cache`, and younger than its lifetime.
    public func isFresh(at now: Double) -> Bool {
        !noCache && freshnessLifetime > currentAge(at: now)
    }

    /// Whether `other` says the same of reuse (its times aside).
    func sameDirectives(as other: CacheDirectives) -> Bool {
        maxAge == other.maxAge && noCache == other.noCache && noStore == other.noStore
            && mustRevalidate == other.mustRevalidate && vary == other.vary
    }

    /// The directives of a `Cache-Control` value, names in lower case, values unquoted.
    static func directives(_ value: String) -> [(name: String, value: String?)] {
        value.split(separator: ",").compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1)
            let name = pieces.first.map { $0.trimmingCharacters(in: [" ", "\t"]).lowercased() } ?? ""
            guard !name.isEmpty else { return nil }
            let raw = pieces.count > 1 ? pieces[1].trimmingCharacters(in: [" ", "\t"]) : nil
            return (name, raw.map { $0.trimmingCharacters(in: ["\""]) })
        }
    }
}

/// HTTP dates (RFC 9110 section 5.6.7): the IMF-fixdate form every server sends today
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`) forms a recipient must accept too.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 of `text`, nil when it is none of the three forms.
    public static func parse(_ text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: [Int]?
        if words.count == 4, words[3] == "GMT" {
            // RFC 850: Sunday 06-Nov-94 08:49:37 GMT (comma dropped); a two-digit year is 1970-2069.
            let parts = words[1].split(separator: "-").map(String.init)
            if parts.count == 3 {
                day = Int(parts[0])
                month = monthNumber(parts[1])
                year = Int(parts[2]).map { $0 < 70 ? 2000 + $0 : ($0 < 100 ? 1900 + $0 : $0) }
                time = clock(words[2])
            }
        } else if words.count == 6, words[5] == "GMT" {
            // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT (comma dropped).
            day = Int(words[1])
            month = monthNumber(words[2])
            year = Int(words[3])
            time = clock(words[4])
        } else if words.count == 5 {
            // asctime: Sun Nov 6 08:49:37 1994
            month = monthNumber(words[1])
            day = Int(words[2])
            time = clock(words[3])
            year = Int(words[4])
        }
        guard let day, let month, let year, let time, (1...31).contains(day) else { return nil }
        return Double(
            daysSince1970(year: year, month: month, day: day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2])
    }

    private static func monthNumber(_ text: String) -> Int? {
        months.firstIndex(of: text.lowercased()).map { $0 + 1 }
    }

    private static func clock(_ text: String) -> [Int]? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, parts[0] < 24, parts[1] < 60, parts[2] <= 60 else { return nil }
        return parts
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days-from-civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
