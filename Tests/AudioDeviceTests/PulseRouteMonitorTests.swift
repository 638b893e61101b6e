import AudioDevice
import Foundation
import Locking
import PlaybackTesting
import Testing

/// The route monitor against a PulseAudio daemon of the test's own (`scripts/pulse.sh start`): sinks loaded and
/// unloaded as devices plugged and unplugged, the default sink chosen, the daemon killed and started again.
@Suite("Audio route monitor: a real PulseAudio server's sinks and its death")
struct PulseRouteMonitorTests {
    @Test("plugged, chosen, unplugged, another chosen; the server killed and started again: each change once, in order")
    func realServer() async throws {
        let directory = try TemporaryDirectory.make(prefix: "route")
        defer { TemporaryDirectory.remove(directory) }
        let pulse = directory.appendingPathComponent("pulse")
        let daemon = try await PulseServer.Private.start(in: pulse)
        let changes = Locked<[AudioRouteState.Change]>([])
        let monitor = try PulseRouteMonitor.start(server: daemon.address) { change in
            changes.withLock { $0.append(change) }
        }
        do {
            try await waitUntil("the first route") { monitor.route?.name == PulseServer.sink }
            let module = try await daemon.plug("playctl_headphones", description: "Headphones", formFactor: "headphone")
            try await daemon.setDefaultSink("playctl_headphones")
            try await waitUntil("the headphones' route change \(changes.withLock { $0 })") {
                changes.withLock { $0.count } == 1
            }
            guard case .routeChanged(let old, let new, .newDeviceAvailable) = changes.withLock({ $0[0] }),
                old?.name == PulseServer.sink, new?.name == "playctl_headphones", new?.formFactor == "headphone",
                new?.description == "Headphones"
            else { throw PulseServer.Failure(message: "not the headphones plugged in: \(changes.withLock { $0 })") }

            try await daemon.unplug(module)
            try await waitUntil("the headphones' removal \(changes.withLock { $0 })") {
                changes.withLock { $0.count } == 2
            }
            let fallback = try await daemon.defaultSink()
            #expect(
                changes.withLock { $0[1] }
                    == .routeChanged(previous: new, current: monitor.route, reason: .oldDeviceUnavailable))
            #expect(monitor.route?.name == fallback)
            let other = fallback == PulseServer.sink ? PulseServer.exactSink : PulseServer.sink
            try await daemon.setDefaultSink(other)
            try await waitUntil("the other sink chosen \(changes.withLock { $0 })") {
                changes.withLock { $0.count } == 3
            }
            guard case .routeChanged(_, let chosen, .routeConfigurationChange) = changes.withLock({ $0[2] }),
                chosen?.name == other
            else { throw PulseServer.Failure(message: "not a configuration change: \(changes.withLock { $0 })") }

            await daemon.stop()
            try await waitUntil("the interruption \(changes.withLock { $0 })") { changes.withLock { $0.count } == 4 }
            #expect(changes.withLock { $0[3] } == .interruptionBegan)
            #expect(monitor.isInterrupted && monitor.route?.name == other, "the route is kept while interrupted")
            // Started again in its folder: `daemon.stop()` stops this one too.
            _ = try await PulseServer.Private.start(in: pulse)
            try await waitUntil("the interruption's end \(changes.withLock { $0 })") {
                changes.withLock { $0.count } >= 5
            }
            #expect(changes.withLock { $0[4] } == .interruptionEnded)
            #expect(!monitor.isInterrupted)
            // The daemon starts again with playctl_sink as its default: a route change after the end when the route
            // was the other sink.
            if other != PulseServer.sink {
                try await waitUntil("the route back to \(PulseServer.sink)") { changes.withLock { $0.count } == 6 }
                guard case .routeChanged(_, let back, .routeConfigurationChange) = changes.withLock({ $0[5] }),
                    back?.name == PulseServer.sink
                else { throw PulseServer.Failure(message: "not the route back: \(changes.withLock { $0 })") }
            }
            monitor.stop()
            await daemon.stop()
        } catch {
            monitor.stop()
            await daemon.stop()
            throw error
        }
    }

    @Test("no server: no route, nothing reported, and stopping returns")
    func noServer() async throws {
        let changes = Locked(0)
        let monitor = try PulseRouteMonitor.start(server: "unix:/nonexistent/playctl/native") { _ in
            changes.withLock { $0 += 1 }
        }
        // The first attempt fails at once (no socket): the route stays unknown and nothing is an interruption (a
        // short pause lets it run; what is checked does not depend on how long).
        try await Task.sleep(for: .milliseconds(50))
        #expect(monitor.route == nil && !monitor.isInterrupted && changes.withLock { $0 } == 0)
        monitor.stop()
        monitor.stop()
    }
}
