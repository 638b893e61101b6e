/// The audio route as a value: what the server said (snapshots) and when it went away in, the changes an app is
/// told of out (`AVAudioSession`'s route change and interruption notifications). No threads, no server: the route
/// monitor feeds it; tests feed it made-up snapshots.
///
/// The route is the server's default sink. When it changes the reason is, in this order: the old one is gone
/// (`oldDeviceUnavailable`, as a headset unplugged on iOS), the new one appeared after the route before it was
/// chosen (`newDeviceAvailable`, as a headset plugged in), else another existing output was chosen
/// (`routeConfigurationChange`). The server going away begins an interruption; its coming back ends it (then a
/// route change if the route differs).
public struct AudioRouteState: Sendable {
    /// Why the route changed (the reasons of `AVAudioSession.RouteChangeReason` the server's events can give).
    public enum RouteChangeReason: Sendable, Equatable {
        case newDeviceAvailable
        case oldDeviceUnavailable
        case routeConfigurationChange
    }

    /// What an app is told.
    public enum Change: Sendable, Equatable {
        case routeChanged(previous: AudioRoutePort?, current: AudioRoutePort?, reason: RouteChangeReason)
        /// The server went away: the app's sound stopped.
        case interruptionBegan
        /// It came back: the app may play again.
        case interruptionEnded
    }

    /// The route (nil before the first snapshot, or when the server has no sink).
    public private(set) var route: AudioRoutePort?
    /// Between the server going away and its coming back.
    public private(set) var isInterrupted = false
    /// Whether a snapshot came (before it, nothing is reported: there was no route to change).
    public private(set) var isKnown = false
    /// The sinks present, without a break, since the route was chosen.
    private var portsAtRouteStart: Set<String> = []

    public init() {}

    /// The server answered with `snapshot` (at connection, and after each of its sink or server events).
    public mutating func received(_ snapshot: AudioRouteSnapshot) -> [Change] {
        var changes: [Change] = []
        if isInterrupted {
            isInterrupted = false
            changes.append(.interruptionEnded)
        }
        let names = Set(snapshot.ports.map(\.name))
        guard isKnown else {
            isKnown = true
            route = snapshot.route
            portsAtRouteStart = names
            return changes
        }
        guard snapshot.route?.name != route?.name else {
            route = snapshot.route
            portsAtRouteStart.formIntersection(names)
            return changes
        }
        let reason: RouteChangeReason
        if let old = route, !names.contains(old.name) {
            reason = .oldDeviceUnavailable
        } else if let new = snapshot.route, !portsAtRouteStart.contains(new.name) {
            reason = .newDeviceAvailable
        } else {
            reason = .routeConfigurationChange
        }
        changes.append(.routeChanged(previous: route, current: snapshot.route, reason: reason))
        route = snapshot.route
        portsAtRouteStart = names
        return changes
    }

    /// The connection to the server was lost (it died, or closed it).
    public mutating func disconnected() -> [Change] {
        guard isKnown, !isInterrupted else { return [] }
        isInterrupted = true
        return [.interruptionBegan]
    }
}
