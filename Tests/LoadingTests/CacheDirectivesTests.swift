import Foundation
import Testing

@testable import Loading

/// What a response says of its reuse (RFC 9111), read from its header fields, and HTTP dates.
@Suite("Cache directives and HTTP dates")
struct CacheDirectivesTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let epoch: Double = 784_111_777

    @Test("the three date forms of RFC 9110; anything else is nil")
    func dates() {
        #expect(HTTPDate.parse(Self.date) == Self.epoch)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Self.epoch)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Self.epoch)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.parse("0") == nil && HTTPDate.parse("yesterday") == nil)
    }

    @Test("Cache-Control: max-age, no-cache, no-store, must-revalidate, in any case, quoted or not, on several lines")
    func cacheControl() {
        let parsed = CacheDirectives(
            fields: ["cache-control": "No-Cache, max-age=\"30\", must-revalidate, no-store, private"],
            responseTime: 0)
        #expect(parsed.maxAge == 30 && parsed.noCache && parsed.noStore && parsed.mustRevalidate)
    }

    @Test("freshness: max-age first, then Expires less Date, then a tenth of Date less Last-Modified, else none")
    func lifetime() {
        let now = Self.epoch
        var fields = ["date": Self.date, "expires": "Sun, 06 Nov 1994 09:49:37 GMT", "cache-control": "max-age=60"]
        #expect(CacheDirectives(fields: fields, responseTime: now).freshnessLifetime == 60)
        fields["cache-control"] = nil
        #expect(CacheDirectives(fields: fields, responseTime: now).freshnessLifetime == 3600)
        fields["expires"] = "0"
        #expect(CacheDirectives(fields: fields, responseTime: now).freshnessLifetime == 0, "an invalid Expires")
        fields["expires"] = nil
        fields["last-modified"] = "Sun, 06 Nov 1994 06:49:37 GMT"
        #expect(CacheDirectives(fields: fields, responseTime: now).freshnessLifetime == 720, "10% of 2 h")
        fields["last-modified"] = nil
        #expect(CacheDirectives(fields: fields, responseTime: now).freshnessLifetime == 0)
    }

    @Test("fresh while younger than its lifetime (Age counted); no-cache never")
    func freshness() {
        let now = Self.epoch
        let made = CacheDirectives(fields: ["date": Self.date, "cache-control": "max-age=60"], responseTime: now)
        #expect(made.isFresh(at: now + 59) && !made.isFresh(at: now + 60))
        let aged = CacheDirectives(
            fields: ["date": Self.date, "cache-control": "max-age=60", "age": "50"], responseTime: now)
        #expect(aged.isFresh(at: now + 9) && !aged.isFresh(at: now + 10))
        let noCache = CacheDirectives(fields: ["cache-control": "no-cache, max-age=60"], responseTime: now)
        #expect(!noCache.isFresh(at: now))
    }

    @Test("a disk head of an earlier version (no caching field) is read, as reused while held")
    func oldHeadReadable() throws {
        let json = #"{"url":"http://h/a.mp4","totalLength":10,"etag":"\"x\"","acceptsRanges":true}"#
        let head = try JSONDecoder().decode(DiskTier.StoredHead.self, from: Data(json.utf8))
        #expect(head.caching == nil && head.etag == "\"x\"" && head.totalLength == 10)
        let now = DiskTier.StoredHead(
            url: "u", totalLength: 1, etag: nil, lastModified: nil, acceptsRanges: true,
            caching: CacheDirectives(fields: ["cache-control": "max-age=5"], responseTime: 1))
        let back = try JSONDecoder().decode(DiskTier.StoredHead.self, from: JSONEncoder().encode(now))
        #expect(back == now)
    }
}
