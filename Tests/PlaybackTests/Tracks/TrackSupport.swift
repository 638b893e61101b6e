import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// What a legible output received: each change's item time and the texts then shown.
final class CueLog: Sendable {
    private let entries = Locked<[(time: Double, texts: [String])]>([])
    let output: PlayerItemLegibleOutput

    init() {
        let entries = self.entries
        output = PlayerItemLegibleOutput { cues, time in
            entries.withLock { $0.append((time.seconds, cues.map(\.text))) }
        }
    }

    var changes: [(time: Double, texts: [String])] { entries.withLock { $0 } }

    /// The changes as lines: `0.500 Hello, world.` (`-` when nothing is shown), for comparing whole traces.
    var lines: [String] {
        changes.map { String(format: "%.3f ", $0.time) + ($0.texts.isEmpty ? "-" : $0.texts.joined(separator: " / ")) }
    }
}

/// The audio a tap received, by time.
final class AudioLog: Sendable {
    private let buffers = Locked<[AudioBuffer]>([])
    let tap: AudioTap

    init() {
        let buffers = self.buffers
        tap = AudioTap { buffer in buffers.withLock { $0.append(buffer) } }
    }

    var received: [AudioBuffer] { buffers.withLock { $0 } }
}

/// A loaded manual-clock player of `clip` with audio, an audio tap, and the item's audio group.
struct AudioSession {
    let clock = ManualClock()
    let item: PlayerItem
    let player: Player
    let audio = AudioLog()
    let audible: MediaSelectionGroup

    init(_ clip: String) async throws {
        item = PlayerItem(url: TrackClips.path(clip))
        player = await TrackSupport.player(item, clock: clock)
        player.add(audio.tap)
        audible = try #require(item.mediaSelectionGroup(for: .audible))
    }

    /// Advances `steps` tenths of a second, then waits for the callbacks.
    func advance(steps: Int) async {
        for _ in 0..<steps { await clock.advance(bySeconds: 0.1) }
        await player.callbacksDelivered()
    }
}

enum TrackSupport {
    /// The whole PCM of audio stream `stream` of `clip` as the engine's reader decodes it (equal to ffmpeg's:
    /// MediaIOTests compares their md5s).
    static func reference(_ clip: String, stream: Int) throws -> [Float] {
        let reader = try AudioSampleReader(url: TrackClips.path(clip), stream: stream)
        var samples: [Float] = []
        while let buffer = try reader.nextBuffer() { samples += buffer.samples }
        return samples
    }

    /// Whether `buffer` holds exactly the samples of `reference` at its time (stereo, 48 kHz).
    static func matches(_ buffer: AudioBuffer, _ reference: [Float]) -> Bool {
        let offset = Int(buffer.time.convertScale(48_000).value) * 2
        guard offset >= 0, offset + buffer.samples.count <= reference.count else { return false }
        return Array(reference[offset..<offset + buffer.samples.count]) == buffer.samples
    }

    /// A new item of `clip` (a clip of Media/tracks/, or an absolute path), made current in `player` and loaded.
    static func load(_ clip: String, into player: Player, clock: ManualClock) async -> PlayerItem {
        let item = PlayerItem(url: clip.hasPrefix("/") ? clip : TrackClips.path(clip))
        player.replaceCurrentItem(with: item)
        await clock.advance(by: .zero)
        return item
    }

    /// A manual-clock player of `item` (audio on), loaded and ready.
    static func player(_ item: PlayerItem, clock: ManualClock, audio: Bool = true) async -> Player {
        let player = Player(item: item, clock: .manual(clock), audio: audio)
        await clock.advance(by: .zero)
        return player
    }
}
