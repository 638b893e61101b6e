extension CommandSpec {
    /// A command whose arguments and options are typed declarations (each held by a static property of the command
    /// that reads it), listed here in the order usage lines and help show them.
    public init(
        name: String, abstract: String, discussion: String = "", arguments: [any ArgumentDeclaration] = [],
        options: [any OptionDeclaration], constraints: [OptionConstraint] = [], examples: [UsageExample] = []
    ) {
        self.init(
            name: name, abstract: abstract, discussion: discussion, arguments: arguments.map(\.spec),
            options: options.map(\.spec), constraints: constraints, examples: examples)
    }
}
