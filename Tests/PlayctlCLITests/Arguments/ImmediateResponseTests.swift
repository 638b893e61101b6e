import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

#if canImport(Glibc)
import Glibc
#endif

@Suite("Writing help and errors to the standard streams")
struct ImmediateResponseTests {
    @Test func usageErrorGoesToStandardErrorOnly() throws {
        let response = try #require(parse("frame clip.mp4 --at x --md5 --md5 -o a.png").immediateResponse)
        let (output, error) = try capture(response)
        #expect(output == "")
        #expect(
            error == """
                playctl: error: options '--md5' and '-o' cannot be used together
                see 'playctl frame --help'

                """)
        #expect(response.exitCode == 2)
    }

    @Test func helpGoesToStandardOutputOnly() throws {
        let response = try #require(parse("help probe").immediateResponse)
        let (output, error) = try capture(response)
        #expect(output.hasPrefix("OVERVIEW: Show the container"))
        #expect(output.contains("USAGE: playctl probe FILE [--json] [--cache-dir DIR] [--cache-size BYTES]\n"))
        #expect(error == "")
        #expect(response.exitCode == 0)
    }

    /// Writes the response into two pipes and reads back what each received.
    private func capture(_ response: ImmediateResponse) throws -> (String, String) {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        try #require(pipe(&out) == 0 && pipe(&err) == 0)
        response.write(standardOutputDescriptor: out[1], standardErrorDescriptor: err[1])
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        return (readAll(out[0]), readAll(err[0]))
    }

    private func readAll(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
