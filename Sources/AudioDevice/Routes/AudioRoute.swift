/// An output of the sound server (a PulseAudio sink): where a new stream's sound goes when it is the default.
public struct AudioRoutePort: Sendable, Hashable {
    /// The sink's name, unique on its server (`alsa_output.usb-…`, `playctl_sink`).
    public var name: String
    /// Its human-readable description (`Built-in Audio Analog Stereo`).
    public var description: String
    /// The bus of its device (`device.bus`: `usb`, `bluetooth`, `pci`; nil for a virtual sink).
    public var bus: String?
    /// Its device's form factor (`device.form_factor`: `headphone`, `headset`, `speaker`, `internal`, …; nil when
    /// the server does not say).
    public var formFactor: String?

    public init(name: String, description: String, bus: String? = nil, formFactor: String? = nil) {
        self.name = name
        self.description = description
        self.bus = bus
        self.formFactor = formFactor
    }
}

/// What the server said at one time: its default sink (the route) and every sink.
public struct AudioRouteSnapshot: Sendable, Equatable {
    /// The default sink (nil: the server has none).
    public var route: AudioRoutePort?
    /// Every sink.
    public var ports: [AudioRoutePort]

    public init(route: AudioRoutePort?, ports: [AudioRoutePort]) {
        self.route = route
        self.ports = ports
    }
}
