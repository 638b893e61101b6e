import AudioDevice
import Testing

/// The route as a value: snapshots and losses in, the changes an app is told of out (`AVAudioSession`'s reasons).
@Suite("Audio route state: server snapshots in, route changes and interruptions out")
struct AudioRouteStateTests {
    static let speakers = AudioRoutePort(name: "speakers", description: "Speakers", bus: "pci", formFactor: "internal")
    static let headphones = AudioRoutePort(name: "headphones", description: "Headphones", formFactor: "headphone")
    static let hdmi = AudioRoutePort(name: "hdmi", description: "HDMI")

    static func snapshot(_ route: AudioRoutePort?, _ ports: [AudioRoutePort]) -> AudioRouteSnapshot {
        AudioRouteSnapshot(route: route, ports: ports)
    }

    @Test("the first answer sets the route and reports nothing; the same route again reports nothing")
    func first() {
        var state = AudioRouteState()
        #expect(state.route == nil && !state.isKnown)
        #expect(state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.hdmi])).isEmpty)
        #expect(state.route == Self.speakers && state.isKnown)
        #expect(state.received(Self.snapshot(Self.speakers, [Self.speakers])).isEmpty)
    }

    @Test(
        "a device plugged in and chosen is new; unplugged, the old one is unavailable; an existing one chosen is a configuration change"
    )
    func reasons() {
        var state = AudioRouteState()
        _ = state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.hdmi]))
        // Plugged in: first listed (the server's sink event), then chosen (its server event).
        #expect(state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.hdmi, Self.headphones])).isEmpty)
        #expect(
            state.received(Self.snapshot(Self.headphones, [Self.speakers, Self.hdmi, Self.headphones]))
                == [.routeChanged(previous: Self.speakers, current: Self.headphones, reason: .newDeviceAvailable)])
        #expect(
            state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.hdmi]))
                == [.routeChanged(previous: Self.headphones, current: Self.speakers, reason: .oldDeviceUnavailable)])
        #expect(
            state.received(Self.snapshot(Self.hdmi, [Self.speakers, Self.hdmi]))
                == [.routeChanged(previous: Self.speakers, current: Self.hdmi, reason: .routeConfigurationChange)])
        // Every sink gone: the route is none, the old one unavailable.
        #expect(
            state.received(Self.snapshot(nil, []))
                == [.routeChanged(previous: Self.hdmi, current: nil, reason: .oldDeviceUnavailable)])
        #expect(state.route == nil)
    }

    @Test("a sink that left and came back since the route was chosen is new when chosen")
    func cameBack() {
        var state = AudioRouteState()
        _ = state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.headphones]))
        _ = state.received(Self.snapshot(Self.speakers, [Self.speakers]))
        _ = state.received(Self.snapshot(Self.speakers, [Self.speakers, Self.headphones]))
        #expect(
            state.received(Self.snapshot(Self.headphones, [Self.speakers, Self.headphones]))
                == [.routeChanged(previous: Self.speakers, current: Self.headphones, reason: .newDeviceAvailable)])
    }

    @Test("the server lost begins one interruption; its answer ends it, then the route change if the route differs")
    func interruption() {
        var state = AudioRouteState()
        #expect(state.disconnected().isEmpty, "no server yet: nothing was interrupted")
        _ = state.received(Self.snapshot(Self.headphones, [Self.speakers, Self.headphones]))
        #expect(state.disconnected() == [.interruptionBegan])
        #expect(state.isInterrupted && state.route == Self.headphones, "the route is kept while interrupted")
        #expect(state.disconnected().isEmpty, "a failed reconnection is the same interruption")
        #expect(
            state.received(Self.snapshot(Self.speakers, [Self.speakers]))
                == [
                    .interruptionEnded,
                    .routeChanged(previous: Self.headphones, current: Self.speakers, reason: .oldDeviceUnavailable),
                ])
        #expect(!state.isInterrupted)
        #expect(state.disconnected() == [.interruptionBegan])
        #expect(state.received(Self.snapshot(Self.speakers, [Self.speakers])) == [.interruptionEnded])
    }
}
