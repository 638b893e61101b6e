import Foundation
import Locking
import MediaIO
import Testing

@testable import Playback

/// Records a player's events and metric events, in the one order they are sent, as readable lines: player events
/// as `TraceRecorder` writes them, metrics as `[host t=time] metric.name description`.
final class MetricsTrace: Sendable {
    private let lines = Locked<[String]>([])
    private let metricEvents = Locked<[any MetricEvent]>([])

    init(_ player: Player) {
        player.observeEventsAndMetrics { [self] record in
            switch record {
            case .event(let event):
                guard let line = TraceRecorder.describe(event) else { return }
                lines.withLock { $0.append(line) }
            case .metric(let metric):
                metricEvents.withLock { $0.append(metric) }
                lines.withLock { $0.append(Self.describe(metric)) }
            }
        }
    }

    var snapshot: [String] { lines.withLock { $0 } }
    var metrics: [any MetricEvent] { metricEvents.withLock { $0 } }

    func metrics<Event: MetricEvent>(_ type: Event.Type) -> [Event] { metrics.compactMap { $0 as? Event } }

    static func describe(_ metric: any MetricEvent) -> String {
        "[\(String(format: "%.3f", metric.hostTime)) t=\(TraceRecorder.fmt(metric.mediaTime))] \(metric.name) \(metric)"
    }
}

/// Fixed answers for the deriver, in place of a player's engine.
struct FakeFacts: MetricsFacts {
    var decoded: ClosedRange<Double>? = nil
    var rateChangeReason: RateChangeReason = .setRateCalled
    var frameCounts: (rendered: Int, dropped: Int) = (0, 0)
    var currentPlayerItem: PlayerItem? = nil

    func isDecoded(_ target: MediaTime) -> Bool { decoded?.contains(target.seconds) ?? false }
}

/// Every element of `stream` until it ends.
func collect<Element: Sendable>(_ stream: AsyncStream<Element>) async -> [Element] {
    var all: [Element] = []
    for await element in stream { all.append(element) }
    return all
}

/// A player event at clock time `t` and item time `itemTime`, about `item`.
func event(_ kind: PlayerEvent.Kind, at t: Double, itemTime: Double = 0, item: String? = "a.mp4") -> PlayerEvent {
    PlayerEvent(kind: kind, hostTime: t, itemTime: MediaTime(seconds: itemTime), item: item)
}
