import Foundation
import Locking
import MediaIO
import Testing

@testable import Playback

/// Records a player's events as readable lines, for asserting whole traces.
final class TraceRecorder: Sendable {
    private let lines = Locked<[String]>([])

    init(_ player: Player) {
        player.observeEvents { [self] event in
            guard let line = TraceRecorder.describe(event) else { return }
            self.lines.withLock { $0.append(line) }
        }
    }

    /// The lines recorded so far (events are recorded synchronously as the player emits them).
    func snapshot(settle: Duration = .zero) async -> [String] {
        lines.withLock { $0 }
    }

    static func fmt(_ time: MediaTime) -> String {
        String(format: "%.3f", time.seconds)
    }

    static func describe(_ event: PlayerEvent) -> String? {
        let head = "[\(String(format: "%.3f", event.hostTime)) t=\(fmt(event.itemTime))]"
        switch event.kind {
        case .itemStatus(let status, _, let error):
            return "\(head) item.status \(event.item ?? "-") \(status)\(error.map { " \($0)" } ?? "")"
        case .timeControlStatus(let status, let reason):
            return "\(head) timeControlStatus \(status)\(reason.map { " \($0.rawValue)" } ?? "")"
        case .rate(let rate, let previous): return "\(head) rate \(rate) (was \(previous))"
        case .currentItem: return "\(head) currentItem \(event.item ?? "nil")"
        case .didPlayToEnd: return "\(head) didPlayToEnd \(event.item ?? "-")"
        case .failedToPlayToEnd(let error): return "\(head) failedToPlayToEnd \(error)"
        case .stalled: return "\(head) stalled"
        case .timeJumped: return "\(head) timeJumped"
        case .seekRequested(let id, let target, _, let exact, _):
            return "\(head) seek#\(id) requested \(fmt(target))\(exact ? " exact" : "")"
        case .seekCompleted(let id, let finished, let landed, _, _):
            return "\(head) seek#\(id) completed \(finished)\(landed.map { " at \(fmt($0))" } ?? "")"
        case .firstFrame: return "\(head) firstFrame \(event.item ?? "-")"
        case .likelyToKeepUp(let value): return "\(head) likelyToKeepUp \(value)"
        case .periodicTime: return nil
        case .boundaryTime(let time): return "\(head) boundary \(fmt(time))"
        case .decodeError(let message): return "\(head) decodeError \(message)"
        case .framesDropped(let times): return "\(head) framesDropped \(times.map(fmt).joined(separator: " "))"
        case .bufferEmpty(let value): return "\(head) bufferEmpty \(value)"
        case .bufferFull(let value): return "\(head) bufferFull \(value)"
        case .cue(let cue):
            return "\(head) cue \(fmt(cue.start))-\(fmt(cue.end)) \(cue.text.replacingOccurrences(of: "\n", with: "|"))"
        case .timedMetadata(let sample):
            return "\(head) timedMetadata \(fmt(sample.time)) \(sample.frames.map(\.id).joined(separator: " "))"
        case .presentationSize(let width, let height): return "\(head) presentationSize \(width)x\(height)"
        case .variantSwitch(let change):
            return "\(head) variantSwitch \(change.from?.id ?? "-") -> \(change.to.id) (\(change.reason))"
        case .mediaSelection(let characteristic, let option):
            return "\(head) mediaSelection \(characteristic.rawValue) \(option ?? "none")"
        case .mediaOptionFailed(let characteristic, let option, let error):
            return "\(head) mediaOptionFailed \(characteristic.rawValue) \(option) \(error)"
        case .audioOutput(let name, let error):
            return "\(head) audioOutput \(name)\(error.map { " \($0)" } ?? "")"
        case .loadedTimeRanges(let ranges):
            return "\(head) loadedTimeRanges \(ranges.map(\.description).joined(separator: " "))"
        }
    }
}
