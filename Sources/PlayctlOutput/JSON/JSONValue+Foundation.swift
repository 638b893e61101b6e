import Foundation

extension JSONValue {
    /// What `JSONSerialization` read, as a value: integers, other numbers and booleans kept apart (Foundation gives
    /// all three as `NSNumber`; a boolean's type code is `c`, an integer's `q`, `l`, `i`, `s`), objects with their
    /// keys sorted (Foundation does not keep the text's order).
    public init(foundation object: Any) {
        switch object {
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" {
                self = .bool(number.boolValue)
            } else if ["q", "l", "i", "s", "Q", "L", "I", "S"].contains(type) {
                self = .int(number.intValue)
            } else {
                self = .double(number.doubleValue)
            }
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, JSONValue(foundation: $0.value)) })
        default:
            self = .null
        }
    }
}
