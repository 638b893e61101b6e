import Foundation
import MediaIO
import PlaybackTesting
import Testing

/// The media fuzzer's committed corpus (Fuzz/corpus/media: the seeds, and every input that ever crashed or hung the
/// fuzzer, kept as a regression), replayed through the fuzzer's own case (PlaybackTesting's `MediaFuzzCase`)
/// and through a player: nothing traps, and every file plays or fails with a typed error.
@Suite("Fuzz corpus: media")
struct FuzzCorpusTests {
    static let corpusDirectory = Repository.url("Fuzz/corpus/media")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []
        return names.sorted()
    }()

    /// Files that make the player hang, each with the bug (reported to the Playback owner). Remove an entry once
    /// its bug is fixed.
    /// (Both that were listed are fixed: `regression-hang-video-ended-audio-queued.mkv`, whose video ends before
    /// its audio, and `regression-hang-ts-audio-far-timestamp.ts`, whose audio lies past the stated duration.)
    static let knownHangs: [String: String] = [:]

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 16, "Fuzz/corpus/media holds \(Self.files.count) files")
    }

    /// Each file in a process of its own (an exit test, ended after 180 s): a trap while decoding or playing it (a
    /// `precondition`, a force unwrap, a crash in FFmpeg) fails this file's case, naming it, and the other files are
    /// replayed all the same.
    @Test(arguments: files)
    func replay(_ name: String) async {
        await #expect(
            processExitsWith: .success,
            "replaying Fuzz/corpus/media/\(name) crashed (a signal) or hung (exit code \(processDeadlineExitCode))"
        ) { [name] in
            exitProcess(ifStillRunningAfter: .seconds(180), "the replay of Fuzz/corpus/media/\(name)")
            try await Self.check(name)
        }
    }

    static func check(_ name: String) async throws {
        let path = corpusDirectory.appendingPathComponent(name).path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // As the fuzzer runs it: the last byte chooses the seek target.
        MediaFuzzCase.run(path: path, seekSeed: bytes.last ?? 0)
        if let bug = knownHangs[name] {
            // Playing it would leave a player spinning with its lock held for the rest of the test run.
            withKnownIssue(Comment(rawValue: bug)) { Issue.record("\(name) not played: \(bug)") }
            return
        }
        let outcome = await BrokenMediaPlayback.play(path, timeout: .seconds(30))
        #expect(!outcome.timedOut, "\(name): \(outcome)")
        if outcome.playedToEnd {
            #expect(outcome.status == .readyToPlay && outcome.error == nil, "\(name): \(outcome)")
        } else {
            #expect(outcome.status == .failed, "\(name): \(outcome)")
            #expect(
                outcome.error.map { BrokenMedia.damageKinds.contains($0.kind.rawValue) } == true, "\(name): \(outcome)")
        }
    }
}
