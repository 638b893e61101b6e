import CommandLineKit

/// `--header 'NAME: VALUE'` (repeatable): HTTP header fields sent with every request for http(s) media (an
/// `Authorization`, a cookie). A group: the commands that read remote media hold one (`var request =
/// RequestOptions()`), and its options join theirs. The fields are never printed (not in events, errors or logs).
struct RequestOptions: ParsableArguments {
    /// One `NAME: VALUE` field: NAME a token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~), VALUE without CR or
    /// LF (spaces around it dropped), as `curl -H` takes it.
    struct HeaderField: Equatable, ArgumentValue {
        let name: String
        let value: String

        init?(argument: String) {
            guard let colon = argument.firstIndex(of: ":") else { return nil }
            let name = String(argument[..<colon])
            var value = Substring(argument[argument.index(after: colon)...])
            while value.first == " " || value.first == "\t" { value.removeFirst() }
            while value.last == " " || value.last == "\t" { value.removeLast() }
            let symbols = Set("!#$%&'*+-.^_`|~")
            guard !name.isEmpty,
                name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || symbols.contains($0) }),
                !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { return nil }
            self.name = name
            self.value = String(value)
        }

        static let expectedArgument = "NAME: VALUE (an HTTP header field)"
    }

    @Option(
        name: "header", placeholder: "'NAME: VALUE'",
        help: "Send this HTTP header field with every request for http(s) media (repeatable; never printed).")
    var fields: [HeaderField]

    /// The fields as a dictionary (a later field replaces an earlier one of the same name, in any case).
    var headers: [String: String] {
        var out: [String: String] = [:]
        for field in fields {
            for old in out.keys where old.lowercased() == field.name.lowercased() { out.removeValue(forKey: old) }
            out[field.name] = field.value
        }
        return out
    }
}
