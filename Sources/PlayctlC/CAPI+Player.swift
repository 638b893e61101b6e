// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Foundation
import Playback

/// The player behind a handle (nil for NULL).
func cPlayer(_ handle: OpaquePointer?) -> CPlayer? {
    guard let handle else { return nil }
    return Unmanaged<CPlayer>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

let invalidArgument = PLAYCTL_ERROR_INVALID_ARGUMENT.rawValue
let success = PLAYCTL_OK.rawValue

@c @implementation
public func playctl_api_version() -> UInt32 {
    UInt32(PLAYCTL_API_VERSION_MAJOR << 16 | PLAYCTL_API_VERSION_MINOR)
}

@c @implementation
public func playctl_error_string(_ error: Int32) -> UnsafePointer<CChar>? {
    CError.strings[error] ?? CError.unknown
}

@c @implementation
public func playctl_create(_ config: UnsafePointer<playctl_config>?) -> OpaquePointer? {
    let config = config?.pointee ?? playctl_config()
    guard (0...2).contains(config.clock), (0...2).contains(config.audio), (0...3).contains(config.action_at_item_end)
    else { return nil }
    var clock: ClockMode
    switch playctl_clock(UInt32(config.clock)) {
    case PLAYCTL_CLOCK_MANUAL:
        if let shared = cPlayer(config.share_clock), case .manual = shared.clock {
            clock = shared.clock
        } else if config.share_clock != nil {
            return nil
        } else {
            clock = .manual(ManualClock())
        }
    case PLAYCTL_CLOCK_UNTIMED: clock = .untimed
    default: clock = .host
    }
    let player = CPlayer(
        clock: clock, audio: playctl_audio(UInt32(config.audio)), sink: config.audio_device.map { String(cString: $0) },
        endAction: playctl_end_action(UInt32(config.action_at_item_end)))
    return OpaquePointer(Unmanaged.passRetained(player).toOpaque())
}

@c @implementation
public func playctl_destroy(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let player = Unmanaged<CPlayer>.fromOpaque(UnsafeRawPointer(handle))
    player.takeUnretainedValue().close()
    player.release()
}

@c @implementation
public func playctl_load(_ handle: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ mode: Int32) -> Int32 {
    guard let player = cPlayer(handle), let url, mode == 0 || mode == 1 else { return invalidArgument }
    let path = String(cString: url)
    guard !path.isEmpty else { return player.fail(PLAYCTL_ERROR_INVALID_ARGUMENT, "an empty URL") }
    if let (code, message) = CError.check(localPath: path) { return player.fail(code, message) }
    let item = PlayerItem(url: path)
    if playctl_load_mode(UInt32(mode)) == PLAYCTL_LOAD_APPEND || player.player.currentItem == nil {
        player.player.insert(item, after: nil)
    } else {
        player.player.replaceCurrentItem(with: item)  // the queue after it stays
    }
    player.updateEndAction()
    return success
}

@c @implementation
public func playctl_set_rate(_ handle: OpaquePointer?, _ rate: Double) -> Int32 {
    guard let player = cPlayer(handle), rate.isFinite, rate >= 0 else { return invalidArgument }
    player.player.rate = Float(rate)
    return success
}

@c @implementation
public func playctl_seek(_ handle: OpaquePointer?, _ seconds: Double, _ flags: Int32, _ requestID: UInt64) -> Int32 {
    let known = PLAYCTL_SEEK_EXACT.rawValue | PLAYCTL_SEEK_RELATIVE.rawValue
    guard let player = cPlayer(handle), seconds.isFinite, flags & ~Int32(known) == 0 else { return invalidArgument }
    let exact = flags & Int32(PLAYCTL_SEEK_EXACT.rawValue) != 0
    var target = seconds
    if flags & Int32(PLAYCTL_SEEK_RELATIVE.rawValue) != 0 { target += player.player.currentTime().seconds }
    let tolerance: MediaTime = exact ? .zero : .positiveInfinity
    player.player.seek(
        to: MediaTime(seconds: max(target, 0)), toleranceBefore: tolerance, toleranceAfter: tolerance
    ) { [weak player] finished in
        player?.seekCompleted(id: requestID, finished: finished)
    }
    return success
}

@c @implementation
public func playctl_clock_advance(_ handle: OpaquePointer?, _ seconds: Double) -> Int32 {
    guard let player = cPlayer(handle), seconds.isFinite, seconds >= 0 else { return invalidArgument }
    guard case .manual(let clock) = player.clock else {
        return player.fail(PLAYCTL_ERROR_INVALID_STATE, "playctl_clock_advance needs PLAYCTL_CLOCK_MANUAL")
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await clock.advance(bySeconds: seconds)
        done.signal()
    }
    done.wait()
    return success
}

@c @implementation
public func playctl_get_state(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<playctl_state>?) -> Int32 {
    guard let player = cPlayer(handle), let out else { return invalidArgument }
    out.pointee = player.snapshot()
    return success
}

@c @implementation
public func playctl_set_volume(_ handle: OpaquePointer?, _ volume: Double) -> Int32 {
    guard let player = cPlayer(handle), volume.isFinite, (0...1).contains(volume) else { return invalidArgument }
    player.player.volume = Float(volume)
    return success
}

@c @implementation
public func playctl_set_muted(_ handle: OpaquePointer?, _ muted: Int32) -> Int32 {
    guard let player = cPlayer(handle), muted == 0 || muted == 1 else { return invalidArgument }
    player.player.isMuted = muted == 1
    return success
}

@c @implementation
public func playctl_last_error_message(
    _ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int32 {
    guard let player = cPlayer(handle) else { return invalidArgument }
    let message = player.state.withLock { $0.lastError }
    let bytes = Array(message.utf8)
    if let buffer, size > 0 {
        let count = min(bytes.count, size - 1)
        for index in 0..<count { buffer[index] = CChar(bitPattern: bytes[index]) }
        buffer[count] = 0
    }
    return Int32(clamping: bytes.count)
}

extension CPlayer {
    /// The player's state as `playctl_state`.
    func snapshot() -> playctl_state {
        var out = playctl_state()
        let item = player.currentItem
        out.time = player.currentTime().seconds
        out.duration = item.map { $0.duration.isNumeric ? $0.duration.seconds : .nan } ?? .nan
        out.rate = Double(player.rate)
        out.time_control_status = Int32(player.timeControlStatus.rawValue)
        out.waiting_reason = Int32(Self.waitingReason(player.reasonForWaitingToPlay).rawValue)
        out.item_status = item.map { Int32($0.status.rawValue) } ?? Int32(PLAYCTL_ITEM_NONE.rawValue)
        let output =
            player.isPlayingToAudioDevice
            ? PLAYCTL_AUDIO_PULSE : audio == PLAYCTL_AUDIO_NONE ? audio : PLAYCTL_AUDIO_NULL
        out.audio_output = Int32(output.rawValue)
        out.avsync = player.avsync ?? 0
        out.clock_time = player.clockTime
        out.volume = Double(player.volume)
        out.muted = player.isMuted ? 1 : 0
        if let size = item?.presentationSize {
            out.width = Int32(clamping: size.width)
            out.height = Int32(clamping: size.height)
        }
        let statistics = player.statistics
        out.frames_rendered = UInt64(statistics.framesRendered)
        out.frames_dropped = UInt64(statistics.framesDropped)
        return out
    }
}
