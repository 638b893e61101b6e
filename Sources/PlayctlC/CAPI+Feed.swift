// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Feed
import Foundation
import MediaIO
import Playback

/// The feed behind a handle (nil for NULL).
func cFeed(_ handle: OpaquePointer?) -> CFeed? {
    guard let handle else { return nil }
    return Unmanaged<CFeed>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// A `playctl_network` value as a profile (nil for an unknown one).
func networkProfile(_ value: Int32) -> NetworkProfile? {
    switch playctl_network(UInt32(bitPattern: value)) {
    case PLAYCTL_NETWORK_UNCONSTRAINED: return .unconstrained
    case PLAYCTL_NETWORK_CELLULAR: return .cellular
    case PLAYCTL_NETWORK_CONSTRAINED: return .constrained
    default: return nil
    }
}

/// The entries of C arrays (`kinds` NULL: by extension); nil when one is bad.
private func feedEntries(
    _ urls: UnsafePointer<UnsafePointer<CChar>?>, _ kinds: UnsafePointer<Int32>?, _ count: Int
) -> [FeedEntry]? {
    var entries: [FeedEntry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
        guard let pointer = urls[index] else { return nil }
        let url = String(cString: pointer)
        guard !url.isEmpty else { return nil }
        var kind = CFeed.kind(of: url)
        if let kinds {
            switch playctl_feed_kind(UInt32(bitPattern: kinds[index])) {
            case PLAYCTL_FEED_VIDEO: kind = .video
            case PLAYCTL_FEED_IMAGE: kind = .image
            default: return nil
            }
        }
        entries.append(FeedEntry(url: url, kind: kind))
    }
    return entries
}

@c @implementation
public func playctl_feed_create(
    _ urls: UnsafePointer<UnsafePointer<CChar>?>?, _ kinds: UnsafePointer<Int32>?, _ count: Int,
    _ config: UnsafePointer<playctl_feed_config>?
) -> OpaquePointer? {
    guard let urls, count > 0, count <= 1_000_000, let entries = feedEntries(urls, kinds, count) else { return nil }
    return makeFeed(entries, config)
}

/// A feed of `entries` made as `config` says (NULL: the defaults); nil when a config value is bad.
func makeFeed(_ entries: [FeedEntry], _ config: UnsafePointer<playctl_feed_config>?) -> OpaquePointer? {
    let config = config?.pointee ?? playctl_feed_config()
    guard config.clock == PLAYCTL_CLOCK_HOST.rawValue || config.clock == PLAYCTL_CLOCK_MANUAL.rawValue,
        config.audio == PLAYCTL_AUDIO_NULL.rawValue || config.audio == PLAYCTL_AUDIO_NONE.rawValue,
        (0...64).contains(config.pool_size), let profile = networkProfile(config.network),
        config.poster_width >= 0, config.poster_height >= 0, config.poster_width <= 16384,
        config.poster_height <= 16384
    else { return nil }
    var configuration = FeedConfiguration()
    if config.pool_size > 0 { configuration.poolSize = max(Int(config.pool_size), 2) }
    configuration.audio = config.audio == PLAYCTL_AUDIO_NULL.rawValue
    configuration.profile = profile
    if config.poster_width > 0, config.poster_height > 0 {
        configuration.posterSize = (Int(config.poster_width), Int(config.poster_height))
    }
    let feed = CFeed(
        entries: entries, configuration: configuration, manual: config.clock == PLAYCTL_CLOCK_MANUAL.rawValue)
    return OpaquePointer(Unmanaged.passRetained(feed).toOpaque())
}

@c @implementation
public func playctl_feed_destroy(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let feed = Unmanaged<CFeed>.fromOpaque(UnsafeRawPointer(handle))
    feed.takeUnretainedValue().close()
    feed.release()
}

@c @implementation
public func playctl_feed_scroll(_ handle: OpaquePointer?, _ index: Int, _ speed: Double) -> Int32 {
    guard let feed = cFeed(handle), feed.feed.entries.indices.contains(index), speed.isFinite, speed >= 0 else {
        return invalidArgument
    }
    feed.scroll(to: index, speed: speed)
    return success
}

@c @implementation
public func playctl_feed_append(
    _ handle: OpaquePointer?, _ urls: UnsafePointer<UnsafePointer<CChar>?>?, _ kinds: UnsafePointer<Int32>?,
    _ count: Int
) -> Int32 {
    guard let feed = cFeed(handle), let urls, count > 0, count <= 1_000_000,
        let entries = feedEntries(urls, kinds, count)
    else { return invalidArgument }
    feed.feed.append(entries)
    return success
}

@c @implementation
public func playctl_feed_network_changed(_ handle: OpaquePointer?, _ network: Int32) -> Int32 {
    guard let feed = cFeed(handle), let profile = networkProfile(network) else { return invalidArgument }
    feed.feed.networkChanged(profile)
    return success
}

@c @implementation
public func playctl_feed_clock_advance(_ handle: OpaquePointer?, _ seconds: Double) -> Int32 {
    guard let feed = cFeed(handle), seconds.isFinite, seconds >= 0 else { return invalidArgument }
    guard let clock = feed.manualClock else { return PLAYCTL_ERROR_INVALID_STATE.rawValue }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await clock.advance(bySeconds: seconds)
        await feed.feed.eventsDelivered()
        done.signal()
    }
    done.wait()
    return success
}

@c @implementation
public func playctl_feed_summary(
    _ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int
) -> Int32 {
    guard let feed = cFeed(handle) else { return invalidArgument }
    return copyText(feed.summaryJSON(), into: buffer, size: size)
}

@c @implementation
public func playctl_feed_wait_event(_ handle: OpaquePointer?, _ timeout: Double) -> UnsafePointer<playctl_event>? {
    guard let feed = cFeed(handle) else { return playctl_wait_event(nil, 0) }
    return feed.source.events.wait(timeout: timeout.isNaN ? 0 : timeout)
}

@c @implementation
public func playctl_feed_wakeup(_ handle: OpaquePointer?) {
    cFeed(handle)?.source.wakeUp()
}

@c @implementation
public func playctl_feed_set_wakeup_callback(
    _ handle: OpaquePointer?, _ callback: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
    _ context: UnsafeMutableRawPointer?
) {
    cFeed(handle)?.source.setWakeup(callback, context)
}

@c @implementation
public func playctl_feed_render_sw(
    _ handle: OpaquePointer?, _ index: Int, _ target: UnsafePointer<playctl_sw_target>?,
    _ info: UnsafeMutablePointer<playctl_frame_info>?
) -> Int32 {
    guard let feed = cFeed(handle), feed.feed.entries.indices.contains(index), let target,
        let layout = SoftwareTarget(target.pointee)
    else { return invalidArgument }
    guard let layer = feed.layer(for: index), let frame = layer.currentFrame else {
        return PLAYCTL_ERROR_NO_FRAME.rawValue
    }
    do throws(MediaError) {
        try feed.converter.withLock { converter throws(MediaError) in
            try converter.scale(
                frame, to: layout.format, width: layout.width, height: layout.height, planes: layout.planes,
                strides: layout.strides)
        }
    } catch {
        return PLAYCTL_ERROR_OTHER.rawValue
    }
    let serial = UInt64(layer.framesDisplayed)
    let isNew = feed.rendered.withLock { $0.updateValue(serial, forKey: index) != serial }
    if let info {
        info.pointee = playctl_frame_info(
            time: frame.time.seconds, width: Int32(clamping: frame.width), height: Int32(clamping: frame.height),
            serial: serial, is_new: isNew ? 1 : 0)
    }
    return success
}

/// Copies `text` into `buffer` (NUL terminated, cut to `size`); returns its full length in bytes.
func copyText(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, size: Int) -> Int32 {
    let bytes = Array(text.utf8)
    if let buffer, size > 0 {
        let count = min(bytes.count, size - 1)
        for index in 0..<count { buffer[index] = CChar(bitPattern: bytes[index]) }
        buffer[count] = 0
    }
    return Int32(clamping: bytes.count)
}
