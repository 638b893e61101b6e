import Synchronization

/// What the command line gave for one declared option or argument: its value, how the user spelled the option and
/// the text they typed. It is the projected value of `@Option`, `@Flag` and `@Argument` (`$rate`), for a command's
/// `validate()` to word an error about it, and what constraints name (`.requires(\.$swapAt, \.$swap)`).
///
/// Filled once, by `ParsableCommand.parse(_:)`, before the command is handed out; read-only afterwards.
public final class ParsedValue<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var value: Value?
        var text: String?
        var spelling = ""
        var isPresent = false
    }

    private let state: Mutex<State>

    /// A value not parsed yet: `value` when the command line does not give one (`nil`: there must be one).
    init(_ value: Value?) {
        state = Mutex(State(value: value))
    }

    /// The value: the one given, converted and checked, or the declaration's default.
    var value: Value {
        guard let value = state.withLock({ $0.value }) else {
            preconditionFailure("a required option or argument read before the command line was parsed")
        }
        return value
    }

    /// Whether the command line gave the option or argument.
    public var isPresent: Bool { state.withLock { $0.isPresent } }

    /// How the user spelled the option (`-o`, `--output`), or its preferred spelling when it was not given; an
    /// argument's name (`FILE`).
    public var spelling: String { state.withLock { $0.spelling } }

    /// The text given (the last one for a repeatable option), as typed; `nil` when not given.
    public var text: String? { state.withLock { $0.text } }

    /// An `.invalidValue` error naming the option as the user spelled it and quoting what they typed, for a value
    /// the declaration accepts but the command does not; `expected` completes "expected ...".
    public func invalidValue(expected: String) -> UsageError {
        UsageError(.invalidValue(option: spelling, value: text ?? "", expected: expected))
    }

    /// A `.missingOption` error naming the option, for an option the command needs in this case.
    public func missing() -> UsageError {
        UsageError(.missingOption(spelling))
    }

    /// Records what the parser read.
    func fill(value: Value?, text: String?, spelling: String, isPresent: Bool) {
        state.withLock { state in
            if let value { state.value = value }
            state.text = text
            state.spelling = spelling
            state.isPresent = isPresent
        }
    }
}

/// The identity of a `ParsedValue` of any type, to match a constraint's key path with the declaration it names.
protocol ParsedValueIdentity: AnyObject {}

extension ParsedValue: ParsedValueIdentity {}
