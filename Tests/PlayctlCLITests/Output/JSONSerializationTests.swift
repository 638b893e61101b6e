import PlaybackTesting
import PlayctlOutput
import Testing

@Suite("JSON serialization")
struct JSONSerializationTests {
    @Test func trickyStringsAreEscaped() {
        #expect(JSONValue.string(#"say "hi""#).serialized() == #""say \"hi\"""#)
        #expect(JSONValue.string(#"C:\path"#).serialized() == #""C:\\path""#)
        #expect(JSONValue.string("line1\nline2").serialized() == #""line1\nline2""#)
        #expect(JSONValue.string("a\tb\rc").serialized() == #""a\tb\rc""#)
        #expect(JSONValue.string("\u{8}\u{C}").serialized() == #""\b\f""#)
        #expect(JSONValue.string("\u{1}").serialized() == #""\u0001""#)
        #expect(JSONValue.string("\u{0}\u{1F}\u{1B}").serialized() == #""\u0000\u001f\u001b""#)
        #expect(JSONValue.string("/ and \u{7F} pass").serialized() == "\"/ and \u{7F} pass\"")
    }

    @Test func nonAsciiTextPassesThroughAsUtf8() {
        #expect(JSONValue.string("🎬 café").serialized() == "\"🎬 café\"")
        #expect(JSONValue.string("👩‍👩‍👧 e\u{301}").serialized() == "\"👩‍👩‍👧 e\u{301}\"")
        let bytes = Array(JSONValue.string("é").serialized().utf8)
        #expect(bytes == [0x22, 0xC3, 0xA9, 0x22])
    }

    @Test func keysAreEscapedAndKeptInInsertionOrder() {
        let value: JSONValue = ["zeta": 1, "alpha": 2, "mid\"dle": 3, "alpha": 4]
        #expect(value.serialized() == #"{"zeta":1,"alpha":2,"mid\"dle":3,"alpha":4}"#)
        #expect(value.keys == ["zeta", "alpha", "mid\"dle", "alpha"])
        #expect(value["alpha"] == 2, "lookup finds the first member")
    }

    @Test func nestedValuesAreCompact() {
        let value: JSONValue = [
            "event": "seek", "items": [1, 2.5, nil, true, false, [], [:]], "inner": ["a": ["b": "c"]],
        ]
        let expected = #"{"event":"seek","items":[1,2.5,null,true,false,[],{}],"inner":{"a":{"b":"c"}}}"#
        #expect(value.serialized() == expected)
    }

    @Test(arguments: [
        (1.5, "1.5"), (2.0, "2.0"), (0.0, "0.0"), (-0.0, "0.0"), (-0.5, "-0.5"), (0.1 + 0.2, "0.3"),
        (1.0 / 3.0, "0.333333"), (2.0 / 3.0, "0.666667"), (-2.0 / 3.0, "-0.666667"), (0.000001, "0.000001"),
        (-0.000001, "-0.000001"), (0.0000001, "0.0"), (-0.0000001, "0.0"), (123456.7890123, "123456.789012"),
        (999_999_999.25, "999999999.25"), (1e9, "1000000000.0"), (1234567890.5, "1234567890.5"), (1e20, "1e+20"),
        (-1e300, "-1e+300"), (0.9999999, "1.0"), (10.0, "10.0"),
    ])
    func doublesPrintWithAtMostSixDecimals(value: Double, text: String) {
        #expect(JSONValue.double(value).serialized() == text)
    }

    @Test func nonFiniteDoublesPrintAsNull() {
        #expect(JSONValue.double(.nan).serialized() == "null")
        #expect(JSONValue.double(.infinity).serialized() == "null")
        #expect(JSONValue.double(-.infinity).serialized() == "null")
        let value: JSONValue = ["rate": .double(.nan), "ok": 1]
        #expect(value.serialized() == #"{"rate":null,"ok":1}"#)
    }

    @Test func integersPrintPlainly() {
        #expect(JSONValue.int(2).serialized() == "2")
        #expect(JSONValue.int(-17).serialized() == "-17")
        #expect(JSONValue.int(.min).serialized() == "-9223372036854775808")
        #expect(JSONValue.int(.max).serialized() == "9223372036854775807")
    }

    @Test func doublesReadBackWithinAMillionth() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let exponent = Double.random(in: -8...22, using: &random)
            let sign: Double = Bool.random(using: &random) ? 1 : -1
            let value = sign * Double.random(in: 1..<10, using: &random) * pow10(exponent)
            let text = JSONValue.double(value).serialized()
            let back = try #require(try JSONValue(parsing: text).doubleValue, "\(text)")
            if value.magnitude < 1e9 {
                // Half a millionth from rounding the text, plus the error of reading the text back into a double.
                #expect((back - value).magnitude <= 5e-7 + value.ulp, "\(value) printed as \(text)")
                #expect((back - value).magnitude < 1e-6)
                #expect(text.contains("."), "a double reads back as a double: \(text)")
            } else {
                #expect(back == value, "\(value) printed as \(text)")
            }
        }
    }

    private func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        let whole = Int(exponent.rounded(.down))
        for _ in 0..<abs(whole) { result = whole < 0 ? result / 10 : result * 10 }
        return result
    }
}
