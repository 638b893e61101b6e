// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import EventJSON
import Playback
import PlayctlOutput

@c @implementation
public func playctl_set_metric_events(_ handle: OpaquePointer?, _ enabled: Int32) -> Int32 {
    guard let player = cPlayer(handle), enabled == 0 || enabled == 1 else { return invalidArgument }
    player.setMetricEvents(enabled == 1)
    return success
}

extension CPlayer {
    /// Queues the player's metric events from now on (or stops); the player's metrics are observed from the first
    /// time they are enabled.
    func setMetricEvents(_ enabled: Bool) {
        let observe = state.withLock { state -> Bool in
            state.metricEvents = enabled
            defer { if enabled { state.observingMetrics = true } }
            return enabled && !state.observingMetrics
        }
        guard observe else { return }
        player.metricsCollector.observe { [weak self] record in
            guard case .metric(let metric) = record else { return }
            self?.metricEvent(metric)
        }
    }

    /// `metric` as a `PLAYCTL_EVENT_METRIC`, when enabled (on the player's callback executor).
    private func metricEvent(_ metric: any MetricEvent) {
        guard state.withLock({ $0.metricEvents }) else { return }
        var out = QueuedEvent(PLAYCTL_EVENT_METRIC)
        out.name = metric.name
        out.json = MetricEventJSON.object(metric).serialized()
        out.time = metric.mediaTime.isNumeric ? metric.mediaTime.seconds : 0
        out.clockTime = metric.hostTime
        out.item = metric.item
        switch metric {
        case let first as FirstFrameEvent: out.latency = first.latency
        case let seek as SeekDidCompleteEvent: out.latency = seek.latency
        case let swap as ContentSwapEvent: out.latency = swap.latency
        default: break
        }
        push(out)
    }
}
