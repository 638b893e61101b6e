import Loading
import Testing

/// The header fields a loader sends: merged by name in any case, checked, the loader's own fields kept out.
@Suite("HTTP header fields")
struct HTTPHeaderFieldsTests {
    @Test("a later field replaces an earlier one of the same name in any case")
    func merging() {
        let merged = HTTPHeaderFields.merging(["authorization": "a", "X-One": "1"], ["Authorization": "b"])
        #expect(merged == ["Authorization": "b", "X-One": "1"])
    }

    @Test("names are tokens, values hold no CR, LF or NUL")
    func validity() {
        #expect(HTTPHeaderFields.isValid(name: "X-Custom_1", value: "a b; c=\"d\""))
        #expect(!HTTPHeaderFields.isValid(name: "Bad Name", value: "v"))
        #expect(!HTTPHeaderFields.isValid(name: "", value: "v"))
        #expect(!HTTPHeaderFields.isValid(name: "X", value: "v\r\nInjected: yes"))
        #expect(!HTTPHeaderFields.isValid(name: "X:Y", value: "v"))
    }

    @Test("parse takes NAME: VALUE as curl -H does")
    func parsing() {
        #expect(HTTPHeaderFields.parse("Authorization:  Bearer t ")! == ("Authorization", "Bearer t"))
        #expect(HTTPHeaderFields.parse("NoColon") == nil)
        #expect(HTTPHeaderFields.parse("Bad Name: v") == nil)
    }

    @Test("the lines sent: merged, invalid and reserved fields dropped, sorted, an empty value as NAME;")
    func lines() {
        let lines = HTTPHeaderFields.lines(
            defaults: ["User-Agent": "ua", "Range": "bytes=0-", "X-Empty": ""],
            request: ["user-agent": "mine", "If-None-Match": "\"x\"", "Bad Name": "v", "Cookie": "c=1"])
        #expect(lines == ["Cookie: c=1", "user-agent: mine", "X-Empty;"])
    }

    @Test("RemoteLoading.adding(headers:) adds to its headers and keeps its cache")
    func loadingAdding() {
        let cache = ByteCache()
        let loading = RemoteLoading(cache: cache, headers: ["A": "1", "B": "2"]).adding(headers: ["b": "3"])
        #expect(loading.headers == ["A": "1", "b": "3"])
        #expect(loading.cache === cache)
    }
}
