// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Feed
import Loading
import Streaming

/// A C entry as a feed entry (its strings copied); nil when it is not valid: no URL and no rendition, an unknown
/// kind, a negative size or duration, a header that is not `Name: value`, a rendition without a URL or a positive
/// bit rate, a reserved field not zero.
func feedEntry(_ entry: playctl_feed_entry) -> FeedEntry? {
    guard isZero(entry.reserved), entry.byte_size >= 0, entry.duration >= 0, !entry.duration.isInfinite,
        entry.header_count >= 0, entry.header_count <= 256, entry.rendition_count >= 0,
        entry.rendition_count <= 64, entry.header_count == 0 || entry.headers != nil,
        entry.rendition_count == 0 || entry.renditions != nil
    else { return nil }
    var renditions: [ProgressiveRendition] = []
    for index in 0..<entry.rendition_count {
        guard let rendition = entry.renditions.map({ $0[index] }), let url = rendition.url.map(String.init(cString:)),
            !url.isEmpty, rendition.bitrate > 0, rendition.bitrate <= Int64(Int32.max), rendition.byte_size >= 0,
            rendition.width >= 0, rendition.height >= 0, (rendition.width == 0) == (rendition.height == 0),
            isZero(rendition.reserved)
        else { return nil }
        renditions.append(
            ProgressiveRendition(
                url: url, bitrate: Int(rendition.bitrate), width: rendition.width > 0 ? Int(rendition.width) : nil,
                height: rendition.height > 0 ? Int(rendition.height) : nil,
                byteSize: rendition.byte_size > 0 ? rendition.byte_size : nil))
    }
    var headers: [String: String] = [:]
    for index in 0..<entry.header_count {
        guard let line = entry.headers?[index].map(String.init(cString:)),
            let field = HTTPHeaderFields.parse(line)
        else { return nil }
        headers = HTTPHeaderFields.merging(headers, [field.name: field.value])
    }
    let url = entry.url.map(String.init(cString:)) ?? renditions.first?.url ?? ""
    guard !url.isEmpty else { return nil }
    let kind: FeedEntry.Kind
    switch playctl_feed_kind(UInt32(bitPattern: entry.kind)) {
    case PLAYCTL_FEED_VIDEO: kind = .video
    case PLAYCTL_FEED_IMAGE: kind = .image
    default: return nil
    }
    let poster = entry.poster.map(String.init(cString:))
    guard poster?.isEmpty != true else { return nil }
    return FeedEntry(
        url: url, kind: kind, byteSize: entry.byte_size > 0 ? entry.byte_size : nil,
        duration: entry.duration > 0 ? entry.duration : nil, renditions: renditions, headers: headers, poster: poster)
}

/// The entries of a C array; nil when one is not valid.
func feedEntries(_ entries: UnsafePointer<playctl_feed_entry>, _ count: Int) -> [FeedEntry]? {
    var out: [FeedEntry] = []
    out.reserveCapacity(count)
    for index in 0..<count {
        guard let entry = feedEntry(entries[index]) else { return nil }
        out.append(entry)
    }
    return out
}

/// Whether every byte of a reserved field is zero.
private func isZero<T>(_ value: T) -> Bool {
    withUnsafeBytes(of: value) { $0.allSatisfy { $0 == 0 } }
}

@c @implementation
public func playctl_feed_create_entries(
    _ entries: UnsafePointer<playctl_feed_entry>?, _ count: Int, _ config: UnsafePointer<playctl_feed_config>?
) -> OpaquePointer? {
    guard let entries, count > 0, count <= 1_000_000, let made = feedEntries(entries, count) else { return nil }
    return makeFeed(made, config)
}

@c @implementation
public func playctl_feed_append_entries(
    _ handle: OpaquePointer?, _ entries: UnsafePointer<playctl_feed_entry>?, _ count: Int
) -> Int32 {
    guard let feed = cFeed(handle), let entries, count > 0, count <= 1_000_000,
        let made = feedEntries(entries, count)
    else { return invalidArgument }
    feed.feed.append(made)
    return success
}

@c @implementation
public func playctl_feed_play(_ handle: OpaquePointer?, _ index: Int) -> Int32 {
    guard let feed = cFeed(handle), feed.feed.entries.indices.contains(index) else { return invalidArgument }
    feed.feed.play(index: index)
    return success
}
