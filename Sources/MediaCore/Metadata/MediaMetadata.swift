/// What a file says about itself beyond its streams: its tags (title, artist, album, date, ...), its chapters and
/// its artwork (an attached picture: an MP3's, FLAC's or M4A's cover).
public struct MediaMetadata: Sendable, Equatable {
    /// One chapter: where it starts and ends, and its title when it has one.
    public struct Chapter: Sendable, Equatable {
        public var start: MediaTime
        public var end: MediaTime
        public var title: String?

        public init(start: MediaTime, end: MediaTime, title: String?) {
            self.start = start
            self.end = end
            self.title = title
        }
    }

    /// An attached picture: its codec (`mjpeg`, `png`), size, and encoded bytes (a whole JPEG or PNG file).
    public struct Artwork: Sendable, Equatable {
        public var codec: String
        public var width: Int
        public var height: Int
        public var bytes: [UInt8]

        public init(codec: String, width: Int, height: Int, bytes: [UInt8]) {
            self.codec = codec
            self.width = width
            self.height = height
            self.bytes = bytes
        }
    }

    /// The container's tags, keys in lower case, in the file's order.
    public var tags: [(key: String, value: String)]
    public var chapters: [Chapter]
    public var artwork: Artwork?

    public init(tags: [(key: String, value: String)] = [], chapters: [Chapter] = [], artwork: Artwork? = nil) {
        self.tags = tags
        self.chapters = chapters
        self.artwork = artwork
    }

    public static func == (lhs: MediaMetadata, rhs: MediaMetadata) -> Bool {
        lhs.tags.elementsEqual(rhs.tags) { $0.key == $1.key && $0.value == $1.value } && lhs.chapters == rhs.chapters
            && lhs.artwork == rhs.artwork
    }

    /// The first tag named `key` (lower case).
    public func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }

    public var title: String? { tag("title") }
    public var artist: String? { tag("artist") ?? tag("album_artist") }
    public var albumName: String? { tag("album") }
    /// The date as the file writes it (`date`, else `creation_time`).
    public var creationDate: String? { tag("date") ?? tag("creation_time") }

    /// The common keys AVFoundation's `commonMetadata` uses, as items: title, artist, album, creation date,
    /// artwork.
    public var commonMetadata: [MetadataItem] {
        var items: [MetadataItem] = []
        if let title { items.append(MetadataItem(commonKey: .title, stringValue: title)) }
        if let artist { items.append(MetadataItem(commonKey: .artist, stringValue: artist)) }
        if let albumName { items.append(MetadataItem(commonKey: .albumName, stringValue: albumName)) }
        if let creationDate { items.append(MetadataItem(commonKey: .creationDate, stringValue: creationDate)) }
        if let artwork { items.append(MetadataItem(commonKey: .artwork, dataValue: artwork.bytes)) }
        return items
    }
}

/// One metadata item under a common key, as `AVMetadataItem` gives it: a string or data value.
public struct MetadataItem: Sendable, Equatable {
    /// `AVMetadataKey`'s common keys.
    public enum CommonKey: String, Sendable, Equatable, CaseIterable {
        case title, artist, albumName, creationDate, artwork
    }

    public var commonKey: CommonKey
    public var stringValue: String?
    public var dataValue: [UInt8]?

    public init(commonKey: CommonKey, stringValue: String? = nil, dataValue: [UInt8]? = nil) {
        self.commonKey = commonKey
        self.stringValue = stringValue
        self.dataValue = dataValue
    }
}
