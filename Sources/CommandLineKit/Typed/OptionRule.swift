/// A rule relating options of a command, naming them by key paths to their projected values (`\.$md5`, or
/// `\.cache.$size` in a group): a rule cannot name an option the command does not declare.
public struct OptionRule<Command: ParsableArguments> {
    private enum Kind {
        case exactlyOne, atMostOne, requires
    }

    private let kind: Kind
    private let options: [PartialKeyPath<Command>]

    /// Exactly one of the options must be given (`frame`: `--md5` or `-o`).
    public static func exactlyOne(_ options: PartialKeyPath<Command>...) -> OptionRule {
        OptionRule(kind: .exactlyOne, options: options)
    }

    /// At most one of the options may be given.
    public static func atMostOne(_ options: PartialKeyPath<Command>...) -> OptionRule {
        OptionRule(kind: .atMostOne, options: options)
    }

    /// `option` is only meaningful together with `other` (`--swap-at` requires `--swap`).
    public static func requires(_ option: PartialKeyPath<Command>, _ other: PartialKeyPath<Command>) -> OptionRule {
        OptionRule(kind: .requires, options: [option, other])
    }

    /// The rule by option names, the names found through the projected values of `prototype`. A key path to
    /// anything but a declaration's projected value names no option, which `CommandSpec.validate()` reports.
    func resolved(in prototype: Command, names: [ObjectIdentifier: String]) -> OptionConstraint {
        let resolved = options.map { path -> String in
            guard let value = prototype[keyPath: path] as? any ParsedValueIdentity else { return "(not an option)" }
            return names[ObjectIdentifier(value)] ?? "(not an option)"
        }
        switch kind {
        case .exactlyOne: return .exactlyOne(resolved)
        case .atMostOne: return .atMostOne(resolved)
        case .requires: return .requires(resolved[0], resolved[1])
        }
    }
}
