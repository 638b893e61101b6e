import Foundation
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Hostile media through the whole engine: every broken file of the corpus either fails with a typed error (within
/// the 30 s watchdog), or (damage inside the media) plays to its end reporting what it skipped. Nothing crashes, hangs, or reports
/// a state it is not in.
@Suite("Broken media: fail fast with a typed error, or play through the damage")
struct BrokenMediaPlaybackTests {
    @Test(arguments: BrokenMedia.all)
    func brokenFile(_ media: BrokenMedia) async throws {
        let dir = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(dir) }
        let path = try media.write(in: dir)
        let user: UInt32? = media.name == "unreadable.mp4" ? FileSystemIdentity.nobody : nil
        let outcome = await BrokenMediaPlayback.play(path, asUser: user)
        #expect(!outcome.timedOut, "\(media.name): \(outcome)")
        switch media.expectation {
        case .fails(let kinds):
            Self.expectFailure(outcome, kinds: kinds, path: path)
        case .plays(let decodeErrors):
            Self.expectPlayedThrough(outcome, path: path, decodeErrors: decodeErrors)
        case .playsOrFails(let kinds):
            if outcome.playedToEnd {
                Self.expectPlayedThrough(outcome, path: path, decodeErrors: false)
            } else {
                Self.expectFailure(outcome, kinds: kinds, path: path)
            }
        }
    }

    /// Failed, with a typed error of an expected kind naming the file, in time, and no longer playing.
    static func expectFailure(
        _ outcome: BrokenMediaPlayback.Outcome, kinds: [String], path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.status == .failed, "\(outcome)", sourceLocation: sourceLocation)
        #expect(!outcome.playedToEnd, "\(outcome)", sourceLocation: sourceLocation)
        guard let error = outcome.error else {
            Issue.record("failed without an error: \(outcome)", sourceLocation: sourceLocation)
            return
        }
        #expect(
            kinds.contains(error.kind.rawValue), "\(error.kind) not in \(kinds): \(outcome)",
            sourceLocation: sourceLocation)
        #expect(error.url == path && error.description.contains(path), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
        if !outcome.failedToPlayToEnd {
            // Failed while loading: before any frame was shown, and without claiming to have been ready. (How soon
            // is not judged here on the wall clock: the 30 s watchdog of `BrokenMediaPlayback.play` catches a hang.)
            #expect(outcome.framesRendered == 0, "\(outcome)", sourceLocation: sourceLocation)
            #expect(outcome.statusEvents == [.failed], "\(outcome.statusEvents)", sourceLocation: sourceLocation)
        }
        #expect(outcome.timeControlStatus != .playing, "\(outcome)", sourceLocation: sourceLocation)
    }

    /// Played to the end, never failed, and reported the damage it skipped when asked to.
    static func expectPlayedThrough(
        _ outcome: BrokenMediaPlayback.Outcome, path: String, decodeErrors: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.playedToEnd, "\(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.status == .readyToPlay && outcome.error == nil, "\(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.statusEvents == [.readyToPlay], "\(outcome.statusEvents)", sourceLocation: sourceLocation)
        #expect(!outcome.failedToPlayToEnd, sourceLocation: sourceLocation)
        if decodeErrors {
            #expect(
                outcome.decodeErrorEvents > 0, "damage skipped silently: \(outcome)", sourceLocation: sourceLocation)
        }
    }

    @Test("the Swift corpus matches scripts/make-broken-media.sh's recipes for the generator")
    func generatorIsTheScripts() throws {
        // First states of the LCG from seed 1, as bash computes them (negative numbers are the same bits).
        var random = BrokenMediaGenerator(seed: 1)
        #expect(random.next() == UInt64(bitPattern: 7_806_831_264_735_756_412))
        #expect(random.next() == UInt64(bitPattern: -9_049_835_345_590_740_197))
        // flip-a-100000.mp4: the script flips bits at these offsets (cmp -l against Media/a.mp4).
        let dir = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(dir) }
        let media = try #require(BrokenMedia.named("flip-a-100000.mp4"))
        let flipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try media.write(in: dir))))
        let original = try MediaFixtures.bytes("a.mp4")
        let changed = zip(flipped, original).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed == [99_734, 143_172, 273_561])
    }
}
