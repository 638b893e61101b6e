extension UsageError {
    /// An error of `kind` thrown by a command's `validate()` (or a projected value's helpers); parsing names the tool
    /// and the command in it.
    public init(_ kind: Kind) {
        self.init(kind, toolName: "", commandName: nil)
    }

    /// The error attributed to `command` of `tool`.
    func within(tool: String, command: String) -> UsageError {
        UsageError(kind, toolName: tool, commandName: command)
    }
}
