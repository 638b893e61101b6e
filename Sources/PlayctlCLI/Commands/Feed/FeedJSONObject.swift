import Loading
import PlayctlOutput

/// One JSON object of a manifest or a script, read member by member: each mistake is reported with the file and
/// the member's path (`entries[2].kind`). A member that is `null` counts as absent; members it is not asked for are
/// ignored.
struct FeedJSONObject {
    let file: String
    /// Where the object is in the document (`entries[2]`, `[0]`).
    let path: String
    private let value: JSONValue

    /// `value` as an object at `path`.
    /// - Throws: `.invalid` when it is not an object.
    init(_ value: JSONValue, file: String, path: String) throws(FeedInputError) {
        guard value.objectValue != nil else { throw .invalid(file: file, path: path, reason: "expected an object") }
        self.value = value
        self.file = file
        self.path = path
    }

    /// A mistake in member `key`.
    func invalid(_ key: String, _ reason: String) -> FeedInputError {
        .invalid(file: file, path: path + "." + key, reason: reason)
    }

    /// Whether the object has member `key` (not `null`).
    func has(_ key: String) -> Bool {
        value[key].map { !$0.isNull } ?? false
    }

    /// The string `key`, nil when absent.
    /// - Throws: `.invalid` when it is not a string.
    func string(_ key: String) throws(FeedInputError) -> String? {
        guard has(key) else { return nil }
        guard let text = value[key]?.stringValue else { throw invalid(key, "expected a string") }
        return text
    }

    /// The number `key`, finite and 0 or more; nil when absent.
    /// - Throws: `.invalid` for anything else.
    func seconds(_ key: String) throws(FeedInputError) -> Double? {
        guard has(key) else { return nil }
        guard let number = value[key]?.doubleValue, number.isFinite, number >= 0 else {
            throw invalid(key, "expected a number, 0 or more")
        }
        return number
    }

    /// The whole number `key`, 0 or more (`3`, or `3.0`, `3e0`); nil when absent.
    /// - Throws: `.invalid` for anything else.
    func count(_ key: String) throws(FeedInputError) -> Int? {
        guard has(key) else { return nil }
        guard let number = value[key]?.intValue, number >= 0 else {
            throw invalid(key, "expected a whole number, 0 or more")
        }
        return number
    }

    /// The boolean `key`, nil when absent.
    /// - Throws: `.invalid` when it is not `true` or `false`.
    func bool(_ key: String) throws(FeedInputError) -> Bool? {
        guard has(key) else { return nil }
        guard let flag = value[key]?.boolValue else { throw invalid(key, "expected true or false") }
        return flag
    }

    /// The array `key`, nil when absent.
    /// - Throws: `.invalid` when it is not an array.
    func array(_ key: String) throws(FeedInputError) -> [JSONValue]? {
        guard has(key) else { return nil }
        guard let array = value[key]?.arrayValue else { throw invalid(key, "expected an array") }
        return array
    }

    /// The object of strings `key` (HTTP header fields: `{"Authorization": "Bearer ..."}`), nil when absent.
    /// - Throws: `.invalid` naming the member (never its value) when it is not an object of strings, or a name is
    ///   not a token or a value holds a line break.
    func headers(_ key: String) throws(FeedInputError) -> [String: String]? {
        guard has(key) else { return nil }
        guard let members = value[key]?.objectValue else { throw invalid(key, "expected an object of strings") }
        var out: [String: String] = [:]
        for (name, member) in members {
            guard let text = member.stringValue else { throw invalid("\(key).\(name)", "expected a string") }
            guard HTTPHeaderFields.isValid(name: name, value: text) else {
                throw invalid("\(key).\(name)", "not a valid HTTP header field")
            }
            out[name] = text
        }
        return out
    }

    /// The member `key` that must be there.
    /// - Throws: `.invalid` naming it when it is absent.
    func required<T>(_ key: String, _ read: (String) throws(FeedInputError) -> T?) throws(FeedInputError) -> T {
        guard let found = try read(key) else {
            throw .invalid(file: file, path: path, reason: "missing \"\(key)\"")
        }
        return found
    }
}
