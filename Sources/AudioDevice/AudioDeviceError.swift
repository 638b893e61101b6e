/// Why the sound server's output cannot be used (the player then goes on with the null device and its own clock).
public struct AudioDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// libpulse is not installed (`libpulse.so.0` cannot be loaded).
        case libraryMissing
        /// No sound server answered (none runs, or `PULSE_SERVER` names nothing), or it refused the connection.
        case serverUnavailable
        /// The sink asked for does not exist, or the stream could not be made.
        case deviceUnavailable
        /// The server went away while playing.
        case connectionLost
    }

    public var kind: Kind
    /// libpulse's reason, or ours.
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "audio device: \(kind.rawValue): \(reason)" }
}
