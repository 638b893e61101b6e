// swift-format-ignore-file: AlwaysUseLowerCamelCase
import AudioDevice
import Foundation

/// A route's inputs and outputs, as `AVAudioSessionRouteDescription`: here one output (the sound server's default
/// sink) or none; no inputs (playback only).
public final class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
    /// Always empty: nothing records.
    public let inputs: [AVAudioSessionPortDescription] = []
    /// The route's output, or none.
    public let outputs: [AVAudioSessionPortDescription]

    init(_ port: AudioRoutePort?) {
        outputs = port.map { [AVAudioSessionPortDescription($0)] } ?? []
        super.init()
    }
}

/// One input or output of a route, as `AVAudioSessionPortDescription`.
public final class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// Its kind, from the server's description of its device (bus and form factor; a sink of no device, as a null
    /// or network sink, is `.lineOut`).
    public let portType: AVAudioSession.Port
    /// Its human-readable name (the sink's description).
    public let portName: String
    /// Its unique identifier (the sink's name).
    public let uid: String

    init(_ port: AudioRoutePort) {
        portType = AVAudioSession.Port(port)
        portName = port.description
        uid = port.name
        super.init()
    }
}

extension AVAudioSession {
    /// The kind of a port, as `AVAudioSession.Port` (the output kinds; raw values as Apple's).
    public struct Port: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        public static let builtInReceiver = Port(rawValue: "Receiver")
        public static let headphones = Port(rawValue: "Headphones")
        public static let lineOut = Port(rawValue: "LineOut")
        public static let HDMI = Port(rawValue: "HDMIOutput")
        public static let usbAudio = Port(rawValue: "USBAudio")
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        public static let airPlay = Port(rawValue: "AirPlay")
        public static let carAudio = Port(rawValue: "CarAudio")

        /// The kind of a sink's device: Bluetooth (by its profile) and USB by their bus, headphones and speakers by
        /// their form factor, HDMI by its name; anything else a line out.
        init(_ port: AudioRoutePort) {
            let name = (port.name + " " + port.description).lowercased()
            switch (port.bus, port.formFactor) {
            // PulseAudio names a Bluetooth sink by its profile: `…a2dp_sink`, `…headset_head_unit` (HSP/HFP).
            case ("bluetooth", _): self = name.contains("head_unit") ? .bluetoothHFP : .bluetoothA2DP
            case (_, "headphone"), (_, "headset"): self = .headphones
            case ("usb", _): self = .usbAudio
            case _ where name.contains("hdmi"): self = .HDMI
            case (_, "speaker"), (_, "internal"): self = .builtInSpeaker
            default: self = .lineOut
            }
        }
    }
}
