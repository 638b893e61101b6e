import Foundation
import PlaybackTesting
import Testing

/// What the built `playctl` executable contains: the product, not the test kit. Its symbol table (`nm`) holds no
/// symbol of the PlaybackTesting module (mangled `15PlaybackTesting`), which playctl-bench links instead; the same
/// reading of playctl-bench finds them, so the check sees what it looks for. Run on a release build with
/// `PLAYCTL_BINARY=.build/release/playctl`.
@Suite("What playctl ships")
struct ShippedSymbolsTests {
    /// The mangled name of the test kit's module, as it appears in every symbol it defines.
    static let testKit = "15PlaybackTesting"

    /// The symbols `nm` lists for the executable at `path`, defined and undefined, as one line each.
    static func symbols(_ path: String) async throws -> [String] {
        let nm = try #require(ProcessRunner.findExecutable("nm"), "nm (binutils) is not installed")
        try #require(FileManager.default.isExecutableFile(atPath: path), "no executable at \(path): swift build first")
        let result = try await ProcessRunner.run(nm, [path], standardOutput: .capture, standardError: .capture)
        try #require(result.succeeded, "nm \(path): \(result.errorText)")
        return result.outputText.split(separator: "\n").map(String.init)
    }

    @Test("playctl has no symbol of the test kit, and its own commands' symbols")
    func playctlLinksNoTestKit() async throws {
        let symbols = try await Self.symbols(CLIProcess.binaryPath)
        #expect(symbols.contains { $0.contains("10PlayctlCLI") }, "nm lists playctl's own modules")
        let kit = symbols.filter { $0.contains(Self.testKit) }
        #expect(kit.isEmpty, "playctl links the test kit: \(kit.prefix(5))")
    }

    @Test("playctl-bench links the test kit (the reading finds it where it is)")
    func benchLinksTheTestKit() async throws {
        let symbols = try await Self.symbols(CLIProcess.binaryPath(of: CLIProcess.bench))
        #expect(symbols.contains { $0.contains(Self.testKit) })
    }
}
