import PlaybackTesting
import PlayctlOutput
import Testing

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test func scalars() throws {
        #expect(try JSONValue(parsing: "null") == .null)
        #expect(try JSONValue(parsing: " true ") == .bool(true))
        #expect(try JSONValue(parsing: "false") == .bool(false))
        #expect(try JSONValue(parsing: "42") == .int(42))
        #expect(try JSONValue(parsing: "-0") == .int(0))
        #expect(try JSONValue(parsing: "2.0") == .double(2))
        #expect(try JSONValue(parsing: "-1.25e2") == .double(-125))
        #expect(try JSONValue(parsing: "1E-3") == .double(0.001))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue(parsing: #""hi""#) == .string("hi"))
    }

    @Test func escapesAndUnicode() throws {
        #expect(try JSONValue(parsing: #""a\"b\\c\/d\n\t\r\b\f""#) == .string("a\"b\\c/d\n\t\r\u{8}\u{C}"))
        #expect(try JSONValue(parsing: #""\u0001\u00e9\u00E9""#) == .string("\u{1}éé"))
        #expect(try JSONValue(parsing: #""\ud83c\udfac""#) == .string("🎬"))
        #expect(try JSONValue(parsing: "\"🎬 café\"") == .string("🎬 café"))
    }

    @Test func objectsKeepOrderAndDuplicates() throws {
        let value = try JSONValue(parsing: #" { "b" : 1 , "a" : [ 1 , { } ] , "b" : null } "#)
        #expect(value.keys == ["b", "a", "b"])
        #expect(value == .object([("b", .int(1)), ("a", .array([.int(1), .object([])])), ("b", .null)]))
        #expect(value["a"]?[1] == .object([]))
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
    }

    @Test func serializedValuesParseBackIdentically() throws {
        let value: JSONValue = [
            "event": "timeControlStatusChanged",
            "time": ["value": 1001, "timescale": 30000, "seconds": 0.033367],
            "tricky": "quote\" backslash\\ newline\n tab\t ctl\u{1} emoji🎬",
            "list": [nil, true, false, -3, 1e20, [[["deep"]]]],
            "empty": ["array": [], "object": [:], "string": ""],
        ]
        let text = value.serialized()
        #expect(!text.contains("\n"))
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test func randomValuesRoundTrip() throws {
        var random = SplitMix64(seed: 99)
        for _ in 0..<2_000 {
            let value = randomValue(depth: 0, &random)
            #expect(try JSONValue(parsing: value.serialized()) == value)
        }
    }

    @Test(arguments: [
        "", " ", "nul", "tru", "01", "-", "1.", ".5", "1e", "+1", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}",
        "{1:2}", "\"abc", "\"a\u{1}b\"", "\"\\x\"", "\"\\u12\"", "\"\\ud83c\"", "\"\\udfac\"", "[", "]", "{", "1 2",
        "'a'", "NaN", "Infinity",
    ])
    func invalidTextsAreRejected(text: String) {
        #expect(throws: JSONParseError.self, "\(text.debugDescription)") { try JSONValue(parsing: text) }
    }

    @Test func errorsSayWhere() {
        #expect(throws: JSONParseError(offset: 1, reason: "expected a string key in object")) {
            try JSONValue(parsing: "{1 ")
        }
        #expect(throws: JSONParseError(offset: 2, reason: "unexpected text after the value")) {
            try JSONValue(parsing: "1 2")
        }
    }

    @Test func nestingIsBounded() throws {
        let limit = JSONValue.maximumParseDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try JSONValue(parsing: ok).arrayValue?.count == 1)
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let tooDeep = String(repeating: "{\"a\":", count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: tooDeep) }
    }

    @Test func jsonLines() throws {
        let text = "{\"a\":1}\n\n  \n[2]\n\"x\"\n"
        #expect(try JSONValue.parseLines(text) == [["a": 1], [2], "x"])
        // The second line starts at byte 8 and ends, unfinished, 4 bytes later.
        #expect(throws: JSONParseError(offset: 12, reason: "expected ',' or ']' in array")) {
            try JSONValue.parseLines("{\"a\":1}\n[2,3")
        }
    }

    @Test func garbageNeverCrashes() throws {
        var random = SplitMix64(seed: 3)
        let alphabet = Array("{}[]\":,.-+eE0123456789 \\u/ntrfalsedb\n\u{1}é🎬")
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &random)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? " " })
            if let value = try? JSONValue(parsing: text) {
                #expect(try JSONValue(parsing: value.serialized()) == value || value.containsNonFinite, "\(text)")
            }
        }
    }

    private func randomValue(depth: Int, _ random: inout SplitMix64) -> JSONValue {
        let choice = Int.random(in: 0..<(depth < 4 ? 8 : 6), using: &random)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int.random(in: Int.min...Int.max, using: &random))
        // Thousandths print exactly and parse back to the same double.
        case 3: return .double(Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &random)) / 1000)
        case 4, 5:
            let scalars = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
            }
            return .string(String(scalars) + (choice == 5 ? "é🎬" : ""))
        case 6:
            let count = Int.random(in: 0...4, using: &random)
            return .array((0..<count).map { _ in randomValue(depth: depth + 1, &random) })
        default:
            return .object(
                (0..<Int.random(in: 0...4, using: &random)).map { index in
                    ("k\(index % 3)", randomValue(depth: depth + 1, &random))
                })
        }
    }
}

extension JSONValue {
    /// Whether a NaN or infinity hides inside: they print as null, so they cannot round-trip.
    var containsNonFinite: Bool {
        switch self {
        case .double(let value): !value.isFinite
        case .array(let elements): elements.contains { $0.containsNonFinite }
        case .object(let members): members.contains { $0.1.containsNonFinite }
        default: false
        }
    }
}
