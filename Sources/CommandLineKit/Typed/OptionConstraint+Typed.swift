extension OptionConstraint {
    /// Exactly one of the declared options must be given (`frame`: `--md5` or `-o`).
    public static func exactlyOne(of options: any OptionDeclaration...) -> OptionConstraint {
        .exactlyOne(options.map(\.spec.name))
    }

    /// At most one of the declared options may be given.
    public static func atMostOne(of options: any OptionDeclaration...) -> OptionConstraint {
        .atMostOne(options.map(\.spec.name))
    }

    /// `option` is only meaningful together with `other` (`--swap-at` requires `--swap`).
    public static func requires(_ option: any OptionDeclaration, _ other: any OptionDeclaration) -> OptionConstraint {
        .requires(option.spec.name, other.spec.name)
    }
}
