// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Foundation
import MediaIO
import Playback

/// The event `playctl_wait_event` returns for a NULL player: a NONE event, never written.
nonisolated(unsafe) private let noEvent: UnsafeMutablePointer<playctl_event> = {
    let event = UnsafeMutablePointer<playctl_event>.allocate(capacity: 1)
    event.initialize(to: playctl_event())
    return event
}()

@c @implementation
public func playctl_wait_event(_ handle: OpaquePointer?, _ timeout: Double) -> UnsafePointer<playctl_event>? {
    guard let player = cPlayer(handle) else { return UnsafePointer(noEvent) }
    return player.events.wait(timeout: timeout.isNaN ? 0 : timeout)
}

@c @implementation
public func playctl_wakeup(_ handle: OpaquePointer?) {
    cPlayer(handle)?.events.wakeUp()
}

@c @implementation
public func playctl_set_wakeup_callback(
    _ handle: OpaquePointer?, _ callback: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
    _ context: UnsafeMutableRawPointer?
) {
    cPlayer(handle)?.setCallback(\.wakeup, callback, context)
}

@c @implementation
public func playctl_set_frame_callback(
    _ handle: OpaquePointer?, _ callback: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
    _ context: UnsafeMutableRawPointer?
) {
    cPlayer(handle)?.setCallback(\.frame, callback, context)
}

@c @implementation
public func playctl_render_sw(
    _ handle: OpaquePointer?, _ target: UnsafePointer<playctl_sw_target>?,
    _ info: UnsafeMutablePointer<playctl_frame_info>?
) -> Int32 {
    guard let player = cPlayer(handle), let target, let layout = SoftwareTarget(target.pointee) else {
        return invalidArgument
    }
    let serial = UInt64(player.layer.framesDisplayed)
    guard let frame = player.layer.currentFrame else {
        return player.fail(PLAYCTL_ERROR_NO_FRAME, "no frame on screen yet")
    }
    do throws(MediaError) {
        try player.converter.withLock { converter throws(MediaError) in
            try converter.scale(
                frame, to: layout.format, width: layout.width, height: layout.height, planes: layout.planes,
                strides: layout.strides)
        }
    } catch {
        return player.fail(PLAYCTL_ERROR_OTHER, error.description)
    }
    let isNew = player.state.withLock { state -> Bool in
        defer { state.lastRendered = serial }
        return state.lastRendered != serial
    }
    if let info {
        info.pointee = playctl_frame_info(
            time: frame.time.seconds, width: Int32(clamping: frame.width), height: Int32(clamping: frame.height),
            serial: serial, is_new: isNew ? 1 : 0)
    }
    return success
}

/// A `playctl_sw_target` checked: a known format, a positive size, a pointer for each plane and strides that
/// hold a row.
struct SoftwareTarget {
    let format: PixelFormat
    let width: Int
    let height: Int
    let planes: [UnsafeMutablePointer<UInt8>?]
    let strides: [Int32]

    init?(_ target: playctl_sw_target) {
        guard target.width > 0, target.height > 0, target.width <= 16384, target.height <= 16384 else { return nil }
        width = Int(target.width)
        height = Int(target.height)
        let chroma = (width + 1) / 2
        let given = [target.planes.0, target.planes.1, target.planes.2]
        let strideValues = [target.strides.0, target.strides.1, target.strides.2]
        var rows: [Int]
        switch playctl_pixel_format(UInt32(bitPattern: target.format)) {
        case PLAYCTL_FORMAT_I420:
            format = .yuv420p
            rows = [width, chroma, chroma]
        case PLAYCTL_FORMAT_RGBA:
            format = .rgba
            rows = [width * 4]
        case PLAYCTL_FORMAT_BGRA:
            format = .bgra
            rows = [width * 4]
        default: return nil
        }
        for (plane, row) in rows.enumerated() where given[plane] == nil || Int(strideValues[plane]) < row {
            return nil
        }
        planes = Array(given.prefix(rows.count))
        strides = Array(strideValues.prefix(rows.count))
    }
}

@c @implementation
public func playctl_event_name(_ type: Int32) -> UnsafePointer<CChar>? {
    EventNames.strings[type] ?? EventNames.unknown
}

/// Static names of the event types.
enum EventNames {
    nonisolated(unsafe) static let strings: [Int32: UnsafePointer<CChar>] = {
        let names: [(playctl_event_type, String)] = [
            (PLAYCTL_EVENT_NONE, "none"), (PLAYCTL_EVENT_ITEM_STATUS, "item-status"),
            (PLAYCTL_EVENT_TIME_CONTROL_STATUS, "time-control-status"), (PLAYCTL_EVENT_RATE, "rate"),
            (PLAYCTL_EVENT_CURRENT_ITEM, "current-item"), (PLAYCTL_EVENT_SEEK_COMPLETED, "seek-completed"),
            (PLAYCTL_EVENT_PLAYED_TO_END, "played-to-end"), (PLAYCTL_EVENT_FAILED, "failed"),
            (PLAYCTL_EVENT_STALLED, "stalled"), (PLAYCTL_EVENT_FIRST_FRAME, "first-frame"),
            (PLAYCTL_EVENT_TIME_JUMPED, "time-jumped"), (PLAYCTL_EVENT_LIKELY_TO_KEEP_UP, "likely-to-keep-up"),
            (PLAYCTL_EVENT_DECODE_ERROR, "decode-error"), (PLAYCTL_EVENT_AUDIO_DEVICE, "audio-device"),
            (PLAYCTL_EVENT_QUEUE_OVERFLOW, "queue-overflow"), (PLAYCTL_EVENT_PIP_POSSIBLE, "pip-possible"),
            (PLAYCTL_EVENT_PIP_WILL_START, "pip-will-start"), (PLAYCTL_EVENT_PIP_DID_START, "pip-did-start"),
            (PLAYCTL_EVENT_PIP_FAILED_TO_START, "pip-failed-to-start"),
            (PLAYCTL_EVENT_PIP_WILL_STOP, "pip-will-stop"), (PLAYCTL_EVENT_PIP_DID_STOP, "pip-did-stop"),
            (PLAYCTL_EVENT_PIP_CONTENT_SWAPPED, "pip-content-swapped"), (PLAYCTL_EVENT_PIP_RESTORE, "pip-restore"),
            (PLAYCTL_EVENT_PIP_SUSPENDED, "pip-suspended"),
            (PLAYCTL_EVENT_PIP_STOPPED_BY_SYSTEM, "pip-stopped-by-system"),
            (PLAYCTL_EVENT_METRIC, "metric"), (PLAYCTL_EVENT_FEED, "feed"), (PLAYCTL_EVENT_POSTER, "poster"),
        ]
        var strings: [Int32: UnsafePointer<CChar>] = [:]
        for (type, name) in names { strings[Int32(type.rawValue)] = UnsafePointer(strdup(name)!) }
        return strings
    }()

    nonisolated(unsafe) static let unknown = UnsafePointer(strdup("unknown")!)
}
