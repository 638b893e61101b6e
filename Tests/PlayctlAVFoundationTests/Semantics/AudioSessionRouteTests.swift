import AVFoundation
import Locking
import PlaybackTesting
import PlayctlAVFoundation
import Testing

/// `AVAudioSession`'s route and its route change and interruption notifications, from a PulseAudio daemon of the
/// test's own, observed as an iOS app observes them (Apple's "Responding to audio route changes" and "Handling
/// audio interruptions": the reason and previous route in `userInfo`, `began`, then `ended` with `.shouldResume`).
@Suite("AVAudioSession: route changes and interruptions from the sound server")
struct AudioSessionRouteTests {
    /// What an app's observer collects.
    final class Observed: @unchecked Sendable {
        let routeChanges = Locked<[(reason: UInt, previous: [String])]>([])
        let interruptions = Locked<[(type: UInt, options: UInt?)]>([])
        var tokens: [any NSObjectProtocol] = []

        init(_ session: AVAudioSession) {
            tokens.append(
                NotificationCenter.default.addObserver(
                    forName: AVAudioSession.routeChangeNotification, object: session, queue: nil
                ) { [routeChanges] notification in
                    guard let info = notification.userInfo,
                        let reason = info[AVAudioSessionRouteChangeReasonKey] as? UInt,
                        let previous = info[AVAudioSessionRouteChangePreviousRouteKey]
                            as? AVAudioSessionRouteDescription
                    else { return }
                    routeChanges.withLock { $0.append((reason, previous.outputs.map(\.uid))) }
                })
            tokens.append(
                NotificationCenter.default.addObserver(
                    forName: AVAudioSession.interruptionNotification, object: session, queue: nil
                ) { [interruptions] notification in
                    guard let type = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt else { return }
                    let options = notification.userInfo?[AVAudioSessionInterruptionOptionKey] as? UInt
                    interruptions.withLock { $0.append((type, options)) }
                })
        }

        func remove() { for token in tokens { NotificationCenter.default.removeObserver(token) } }
    }

    @Test("headphones plugged in and chosen, unplugged; the server killed and back: the notifications Apple documents")
    func routeAndInterruption() async throws {
        let directory = try TemporaryDirectory.make(prefix: "session-route")
        defer { TemporaryDirectory.remove(directory) }
        let pulse = directory.appendingPathComponent("pulse")
        let daemon = try await PulseServer.Private.start(in: pulse)
        var configuration = PlayctlAVFoundation.Configuration(clock: .untimed)
        configuration.soundServer = .pulseAudio(server: daemon.address)
        let session = PlayctlAVFoundation.withConfiguration(configuration) { AVAudioSession.sharedInstance() }
        let observed = Observed(session)
        defer { observed.remove() }
        do {
            try session.setCategory(.playback)
            try session.setActive(true)
            try await waitUntil("the first route") { session.currentRoute.outputs.first?.uid == PulseServer.sink }
            let speakers = try #require(session.currentRoute.outputs.first)
            #expect(speakers.portType == .lineOut && session.currentRoute.inputs.isEmpty, "a null sink has no device")

            let module = try await daemon.plug("playctl_headphones", description: "Headphones", formFactor: "headphone")
            try await daemon.setDefaultSink("playctl_headphones")
            try await waitUntil("the headphones' route change") { observed.routeChanges.withLock { $0.count } == 1 }
            let plugged = observed.routeChanges.withLock { $0[0] }
            #expect(AVAudioSession.RouteChangeReason(rawValue: plugged.reason) == .newDeviceAvailable)
            #expect(plugged.previous == [PulseServer.sink])
            let output = try #require(session.currentRoute.outputs.first)
            #expect(
                output.portType == .headphones && output.portName == "Headphones" && output.uid == "playctl_headphones")

            try await daemon.unplug(module)
            try await waitUntil("the headphones unplugged") { observed.routeChanges.withLock { $0.count } == 2 }
            let unplugged = observed.routeChanges.withLock { $0[1] }
            #expect(AVAudioSession.RouteChangeReason(rawValue: unplugged.reason) == .oldDeviceUnavailable)
            #expect(unplugged.previous == ["playctl_headphones"])

            await daemon.stop()
            try await waitUntil("the interruption") { observed.interruptions.withLock { $0.count } == 1 }
            let began = observed.interruptions.withLock { $0[0] }
            #expect(AVAudioSession.InterruptionType(rawValue: began.type) == .began && began.options == nil)
            // Started again in its folder: `daemon.stop()` stops this one too.
            _ = try await PulseServer.Private.start(in: pulse)
            try await waitUntil("the interruption's end") { observed.interruptions.withLock { $0.count } == 2 }
            let ended = observed.interruptions.withLock { $0[1] }
            #expect(AVAudioSession.InterruptionType(rawValue: ended.type) == .ended)
            #expect(ended.options.map { AVAudioSession.InterruptionOptions(rawValue: $0) } == .shouldResume)
            await daemon.stop()
        } catch {
            await daemon.stop()
            throw error
        }
    }

    @Test("no sound server: an empty route, no notification")
    func noServer() throws {
        var configuration = PlayctlAVFoundation.Configuration(clock: .untimed)
        configuration.soundServer = .none
        let session = PlayctlAVFoundation.withConfiguration(configuration) { AVAudioSession.sharedInstance() }
        try session.setActive(true)
        #expect(session.currentRoute.outputs.isEmpty && session.currentRoute.inputs.isEmpty)
    }
}
