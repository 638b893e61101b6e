import Foundation
import MediaCore
import PlayctlOutput

extension MediaJSON {
    /// An `emsg` box's fields: `scheme` (its scheme_id_uri), `value`, `id`, `version`, and `message` (base64).
    public static func eventMessageFields(_ event: EventMessage, message: [UInt8]) -> JSONValue {
        .object([
            ("scheme", .string(event.schemeIdURI)), ("value", .string(event.value)), ("id", .int(Int(event.id))),
            ("version", .int(event.version)), ("message", .string(Data(message).base64EncodedString())),
        ])
    }

    /// A timed metadata item (`mebx`): `identifier` (`mdta/com.apple.quicktime.location.ISO6709`), `keySpace`,
    /// `key`, `dataType` (the well-known type) and `value` (a string, a number, or base64 for bytes).
    public static func metadataItem(_ item: TimedMetadataItem) -> JSONValue {
        let value: JSONValue
        switch item.value {
        case .string(let text): value = .string(text)
        case .integer(let number): value = .int(Int(number))
        case .float(let number): value = .double(number)
        case .data(let bytes): value = .string(Data(bytes).base64EncodedString())
        }
        return .object([
            ("identifier", .string(item.identifier)), ("keySpace", .string(item.keySpace)), ("key", .string(item.key)),
            ("dataType", .int(item.dataType)), ("value", value),
        ])
    }
}
