import Foundation
import PlaybackTesting
import Testing

/// The C and Python examples, built and run as their READMEs say against an installed copy of this build's
/// library (`scripts/examples.sh`); the Swift package example runs after the suite (`scripts/test.sh`), since it
/// builds playctl again.
@Suite struct ExamplesTests {
    @Test func cMinimalAndPythonCtypesRun() throws {
        let result = try Embedding.runScript(
            "scripts/examples.sh",
            ["--only", "c", "--only", "python", "--no-build", "--bin-path", Embedding.binPath])
        #expect(result.succeeded, "\(result.outputText)\(result.errorText)")
        let output = result.outputText
        #expect(output.contains("c-minimal: ") && output.contains("seek landed at 4.000"), "\(output)")
        #expect(output.contains("python-ctypes: ") && output.contains("frames shown: ok"), "\(output)")
        // The same trace from C and from Python: the manual clock makes it deterministic.
        let trace = { (tool: String) -> [Substring] in
            let lines = output.split(separator: "\n")
            guard let start = lines.firstIndex(of: Substring("== \(tool)")) else { return [] }
            return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("\(tool):") && !$0.hasPrefix("==") })
        }
        #expect(!trace("c-minimal").isEmpty)
        #expect(trace("c-minimal") == trace("python-ctypes"))
    }
}
