import CXML2
import MediaCore

/// An element of a parsed XML document as plain Swift values: its local name, attributes, text and child elements.
/// ``DASHManifestParser`` reads MPDs through it, so that libxml2's pointers stay in this file.
struct XMLTreeElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String]
    /// The concatenated text and CDATA directly inside it.
    var text: String
    var children: [XMLTreeElement]

    /// The children named `name`, in document order.
    func children(_ name: String) -> [XMLTreeElement] { children.filter { $0.name == name } }

    /// The first child named `name`.
    func child(_ name: String) -> XMLTreeElement? { children.first { $0.name == name } }

    subscript(attribute: String) -> String? { attributes[attribute] }
}

extension XMLTreeElement {
    /// Elements nested deeper than this are dropped (an MPD needs six levels); libxml2 limits depth itself too.
    static let maximumDepth = 32
    /// Documents with more elements than this are refused.
    static let maximumElements = 200_000

    /// The root element of the XML document in `bytes`, parsed by libxml2 without network access, without loading
    /// a DTD and without substituting entities; a document with a DTD of its own is refused (no entity expansion).
    static func parse(_ bytes: [UInt8], url: String) throws(MediaError) -> XMLTreeElement {
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "empty or oversized XML")
        }
        let options =
            Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOBLANKS.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
            | Int32(XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), nil, nil, options)
                }
            }
        }
        guard let document else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "not well-formed XML")
        }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil else {
            throw MediaError(
                .refusedByPolicy, url: url, operation: .probe, reason: "the XML has a DTD (entities are not expanded)")
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw MediaError(.malformedManifest, url: url, operation: .probe, reason: "XML without a root element")
        }
        var count = 0
        guard let element = convert(root, depth: 0, count: &count) else {
            throw MediaError(
                .malformedManifest, url: url, operation: .probe,
                reason: "XML of more than \(maximumElements) elements")
        }
        return element
    }

    /// `node` as a value, or nil when the document has too many elements.
    private static func convert(_ node: xmlNodePtr, depth: Int, count: inout Int) -> XMLTreeElement? {
        count += 1
        guard count <= maximumElements else { return nil }
        var element = XMLTreeElement(name: string(node.pointee.name), attributes: [:], text: "", children: [])
        var attribute = node.pointee.properties
        while let current = attribute {
            var value = ""
            var child = current.pointee.children
            while let text = child {
                if text.pointee.type == XML_TEXT_NODE { value += string(text.pointee.content) }
                child = text.pointee.next
            }
            element.attributes[string(current.pointee.name)] = value
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE where depth + 1 < maximumDepth:
                guard let converted = convert(current, depth: depth + 1, count: &count) else { return nil }
                element.children.append(converted)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                element.text += string(current.pointee.content)
            default:
                break
            }
            child = current.pointee.next
        }
        return element
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        string(UnsafePointer(pointer))
    }
}
