/// A rule relating several options of one command, checked after every option has been read.
///
/// Options are named by their canonical names (`OptionSpec.name`) or their short alias letters (`"o"`).
public enum OptionConstraint: Sendable, Equatable {
    /// Exactly one of the options must be given (`frame`: `--md5` or `-o`).
    case exactlyOne([String])
    /// At most one of the options may be given.
    case atMostOne([String])
    /// The first option is only meaningful together with the second (`--swap-at` requires `--swap`).
    case requires(String, String)

    /// Every option name the constraint mentions.
    public var optionNames: [String] {
        switch self {
        case .exactlyOne(let names), .atMostOne(let names): names
        case .requires(let option, let other): [option, other]
        }
    }
}
