import Foundation
import PlaybackTesting
import Testing

/// `playctl play URL --header 'NAME: VALUE'` against scripts/netns.sh's `/auth/` (401 unless the request carries
/// `Authorization: Bearer playctl-test-token`): the header is sent, never printed, and a refusal is a typed error.
@Suite("playctl play --header")
struct HeaderCLITests {
    static var serverMissing: Bool { TestHTTPServer.skipReason != nil }

    @Test(
        "with --header the item shows its first frame and exits 0; the value is printed nowhere",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"))
    func playsWithHeader() async throws {
        let url = TestHTTPServer.url("auth/a.mp4?cli-\(UUID().uuidString.prefix(8))")
        let result = try await CLIProcess.run(
            [
                "play", url, "--header", "X-Other: 1", "--header", "Authorization: Bearer playctl-test-token",
                "--frames", "1", "--no-audio", "--json",
            ], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"metric.firstFrame\""), "\(result.standardOutput.suffix(1500))")
        #expect(!(result.standardOutput + result.standardError).contains("playctl-test-token"))
    }

    @Test(
        "without it: exit 1, an error naming the URL and the 401; a wrong value is not printed",
        .enabled(if: !serverMissing, "needs scripts/netns.sh"))
    func refusedWithoutHeader() async throws {
        let url = TestHTTPServer.url("auth/a.mp4?cli-\(UUID().uuidString.prefix(8))")
        let result = try await CLIProcess.run(
            ["play", url, "--header", "Authorization: Bearer wrong-cli-secret", "--frames", "1", "--no-audio"],
            timeout: 120)
        #expect(result.status == 1, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains(url) && result.standardError.contains("401"), "\(result.standardError)")
        #expect(!(result.standardOutput + result.standardError).contains("wrong-cli-secret"))
    }

    @Test("a field that is not NAME: VALUE is a usage error (exit 2)")
    func malformedHeader() async throws {
        let result = try await CLIProcess.runWithoutServer(["play", "clip.mp4", "--header", "Bad Name: v"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("--header"))
    }
}
