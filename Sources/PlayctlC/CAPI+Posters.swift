// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Foundation
import Posters

/// The posters pipeline behind a handle (nil for NULL).
func cPosters(_ handle: OpaquePointer?) -> CPosters? {
    guard let handle else { return nil }
    return Unmanaged<CPosters>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

@c @implementation
public func playctl_posters_create(_ config: UnsafePointer<playctl_posters_config>?) -> OpaquePointer? {
    let config = config?.pointee ?? playctl_posters_config()
    guard (0...16).contains(config.max_concurrent_decodes), (0...4096).contains(config.max_results) else {
        return nil
    }
    var configuration = PosterPipeline.Configuration()
    if config.max_concurrent_decodes > 0 { configuration.maximumConcurrentDecodes = Int(config.max_concurrent_decodes) }
    let posters = CPosters(
        configuration: configuration, maxResults: config.max_results > 0 ? Int(config.max_results) : 64)
    return OpaquePointer(Unmanaged.passRetained(posters).toOpaque())
}

@c @implementation
public func playctl_posters_destroy(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let posters = Unmanaged<CPosters>.fromOpaque(UnsafeRawPointer(handle))
    posters.takeUnretainedValue().close()
    posters.release()
}

@c @implementation
public func playctl_posters_request(
    _ handle: OpaquePointer?, _ request: UnsafePointer<playctl_poster_request>?, _ id: UInt64
) -> Int32 {
    guard let posters = cPosters(handle), let request = request?.pointee, let source = request.source,
        request.time.isFinite, request.time >= 0, (0...16384).contains(request.width),
        (0...16384).contains(request.height), (request.width == 0) == (request.height == 0),
        request.fit == 0 || request.fit == 1, request.priority == 0 || request.priority == 1,
        request.keyframe == 0 || request.keyframe == 1
    else { return invalidArgument }
    let path = String(cString: source)
    guard !path.isEmpty else { return invalidArgument }
    let poster = PosterRequest(
        source: path, time: request.time > 0 ? request.time : nil, exact: request.keyframe == 0,
        width: request.width > 0 ? Int(request.width) : nil, height: request.height > 0 ? Int(request.height) : nil,
        fit: request.fit == 1 ? .fill : .fit, format: .rgba,
        priority: request.priority == 1 ? .prefetch : .visible)
    return posters.request(poster, id: id) ? success : PLAYCTL_ERROR_INVALID_STATE.rawValue
}

@c @implementation
public func playctl_posters_cancel(_ handle: OpaquePointer?, _ id: UInt64) -> Int32 {
    guard let posters = cPosters(handle) else { return invalidArgument }
    return posters.cancel(id) ? success : PLAYCTL_ERROR_INVALID_STATE.rawValue
}

@c @implementation
public func playctl_posters_result(
    _ handle: OpaquePointer?, _ id: UInt64, _ rgba: UnsafeMutablePointer<UInt8>?, _ size: Int,
    _ info: UnsafeMutablePointer<playctl_poster_info>?
) -> Int32 {
    guard let posters = cPosters(handle) else { return invalidArgument }
    guard let poster = posters.poster(id, take: false) else { return PLAYCTL_ERROR_INVALID_STATE.rawValue }
    if let rgba {
        guard size >= poster.image.width * poster.image.height * 4 else { return invalidArgument }
        // Taken now: another thread taking it at once gets INVALID_STATE.
        guard let taken = posters.poster(id, take: true) else { return PLAYCTL_ERROR_INVALID_STATE.rawValue }
        CPosters.copy(taken, into: rgba)
    }
    if let info {
        var out = playctl_poster_info()
        out.width = Int32(clamping: poster.image.width)
        out.height = Int32(clamping: poster.image.height)
        out.source_width = Int32(clamping: poster.sourceWidth)
        out.source_height = Int32(clamping: poster.sourceHeight)
        out.time = poster.time.isNumeric ? poster.time.seconds : 0
        out.from_cache = poster.fromCache ? 1 : 0
        info.pointee = out
    }
    return success
}

@c @implementation
public func playctl_posters_wait_event(_ handle: OpaquePointer?, _ timeout: Double) -> UnsafePointer<playctl_event>? {
    guard let posters = cPosters(handle) else { return playctl_wait_event(nil, 0) }
    return posters.source.events.wait(timeout: timeout.isNaN ? 0 : timeout)
}

@c @implementation
public func playctl_posters_wakeup(_ handle: OpaquePointer?) {
    cPosters(handle)?.source.wakeUp()
}

@c @implementation
public func playctl_posters_set_wakeup_callback(
    _ handle: OpaquePointer?, _ callback: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
    _ context: UnsafeMutableRawPointer?
) {
    cPosters(handle)?.source.setWakeup(callback, context)
}
