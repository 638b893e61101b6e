import Foundation

extension PulseServer.Private {
    /// Runs `pactl` with `arguments` against this daemon; its standard output.
    /// - Throws: `PulseServer.Failure` when pactl is missing or fails.
    @discardableResult
    public func pactl(_ arguments: [String]) async throws -> String {
        guard let pactl = ProcessRunner.findExecutable("pactl") else {
            throw PulseServer.Failure(message: "pactl is not installed (pulseaudio-utils: scripts/setup.sh)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = address
        let result = try await ProcessRunner.run(
            pactl, arguments, standardOutput: .capture, standardError: .capture, environment: environment, timeout: 20)
        guard result.succeeded else {
            throw PulseServer.Failure(message: "pactl \(arguments.joined(separator: " ")) failed: \(result.errorText)")
        }
        return result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds a null sink named `name` (described as `description`, its device's form factor `formFactor`), as a
    /// device plugged in; returns its module's index, for ``unplug(_:)``.
    public func plug(_ name: String, description: String, formFactor: String? = nil) async throws -> String {
        var properties = "device.description=\(description)"
        if let formFactor { properties += " device.form_factor=\(formFactor)" }
        return try await pactl([
            "load-module", "module-null-sink", "sink_name=\(name)", "sink_properties='\(properties)'",
        ])
    }

    /// Removes the sink of module `module` (``plug(_:description:formFactor:)``'s answer), as a device unplugged.
    public func unplug(_ module: String) async throws { try await pactl(["unload-module", module]) }

    /// Makes `sink` the default (as a user choosing an output).
    public func setDefaultSink(_ sink: String) async throws { try await pactl(["set-default-sink", sink]) }

    /// The default sink's name.
    public func defaultSink() async throws -> String { try await pactl(["get-default-sink"]) }
}
