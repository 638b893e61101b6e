import MediaCore

/// A family of metadata keys, as `AVMetadataKeySpace`.
public struct AVMetadataKeySpace: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The keys shared by every format (`commonMetadata`'s).
    public static let common = AVMetadataKeySpace(rawValue: "comn")
    /// The container's tags as FFmpeg names them (lower case: `title`, `artist`, `encoder`, ...): FFmpeg gives the
    /// tags of every format under one set of names, so the format's own key space is not known.
    public static let playctlContainerTags = AVMetadataKeySpace(rawValue: "playctl.tags")
}

/// A metadata key, as `AVMetadataKey`.
public struct AVMetadataKey: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The title.
    public static let commonKeyTitle = AVMetadataKey(rawValue: "title")
    /// The artist.
    public static let commonKeyArtist = AVMetadataKey(rawValue: "artist")
    /// The album's name.
    public static let commonKeyAlbumName = AVMetadataKey(rawValue: "albumName")
    /// The creation date.
    public static let commonKeyCreationDate = AVMetadataKey(rawValue: "creationDate")
    /// The artwork (a JPEG or PNG file's bytes).
    public static let commonKeyArtwork = AVMetadataKey(rawValue: "artwork")
}

/// A key space and key together, as `AVMetadataIdentifier` (`common/title`).
public struct AVMetadataIdentifier: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `common/title`.
    public static let commonIdentifierTitle = AVMetadataIdentifier(rawValue: "common/title")
    /// `common/artist`.
    public static let commonIdentifierArtist = AVMetadataIdentifier(rawValue: "common/artist")
    /// `common/albumName`.
    public static let commonIdentifierAlbumName = AVMetadataIdentifier(rawValue: "common/albumName")
    /// `common/creationDate`.
    public static let commonIdentifierCreationDate = AVMetadataIdentifier(rawValue: "common/creationDate")
    /// `common/artwork`.
    public static let commonIdentifierArtwork = AVMetadataIdentifier(rawValue: "common/artwork")
}

/// One piece of an asset's metadata, as `AVMetadataItem`: a key in a key space and a string or data value, read
/// from the container's tags and its cover art (not timed: `time` and `duration` are invalid).
open class AVMetadataItem: NSObject, @unchecked Sendable {
    /// `keySpace` and `key` as one value (`common/title`, `playctl.tags/encoder`).
    public let identifier: AVMetadataIdentifier?
    /// The key's family.
    public let keySpace: AVMetadataKeySpace?
    /// The common key the item is also known by, if any.
    public let commonKey: AVMetadataKey?
    /// The text of a text item.
    public let stringValue: String?
    /// The bytes of a binary item (artwork: a whole JPEG or PNG file).
    public let dataValue: Data?
    /// The value's type (`com.apple.metadata.datatype.UTF-8`, `.JPEG`, `.PNG`), as `kCMMetadataBaseDataType_…`.
    public let dataType: String?
    private let keyText: String

    init(
        keySpace: AVMetadataKeySpace, key: String, commonKey: AVMetadataKey?, stringValue: String?,
        dataValue: Data?, dataType: String
    ) {
        self.keySpace = keySpace
        self.keyText = key
        self.identifier = AVMetadataIdentifier(
            rawValue: "\(keySpace == .common ? "common" : keySpace.rawValue)/\(key)")
        self.commonKey = commonKey
        self.stringValue = stringValue
        self.dataValue = dataValue
        self.dataType = dataType
        super.init()
    }

    /// The key (an `NSString`: `item.key as? String` reads it).
    public var key: (any NSCopying & NSObjectProtocol)? { NSString(string: keyText) }

    /// The value: an `NSString` or an `NSData`.
    public var value: (any NSCopying & NSObjectProtocol)? {
        if let stringValue { return NSString(string: stringValue) }
        return dataValue.map { NSData(data: $0) }
    }

    /// The value as a date, for a text value in ISO 8601 (`2024-05-01T12:00:00Z`, with or without fractions of a
    /// second) or a bare date (`2024-05-01`).
    public var dateValue: Date? {
        guard let stringValue else { return nil }
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: stringValue) { return date }
        }
        return nil
    }

    /// The value as a number, for a text value that is one.
    public var numberValue: NSNumber? { stringValue.flatMap { Double($0) }.map { NSNumber(value: $0) } }

    /// Untimed: invalid.
    public var time: CMTime { .invalid }
    /// Untimed: invalid.
    public var duration: CMTime { .invalid }
    /// None.
    public var extraAttributes: [String: Any]? { nil }
    /// Unknown: nil.
    public var locale: Locale? { nil }

    /// The items of `items` with `identifier`.
    public class func metadataItems(
        from items: [AVMetadataItem], filteredByIdentifier identifier: AVMetadataIdentifier
    ) -> [AVMetadataItem] {
        items.filter { $0.identifier == identifier }
    }

    /// The items of `items` with `key` (an `AVMetadataKey`, `String` or `NSString`; nil: any) in `keySpace` (nil:
    /// any).
    public class func metadataItems(
        from items: [AVMetadataItem], withKey key: Any?, keySpace: AVMetadataKeySpace?
    ) -> [AVMetadataItem] {
        let wanted: String? =
            (key as? AVMetadataKey)?.rawValue ?? (key as? String) ?? (key as? NSString).map { String($0) }
        return items.filter { item in
            (keySpace == nil || item.keySpace == keySpace) && (wanted == nil || item.keyText == wanted)
        }
    }
}

extension AVMetadataItem {
    static let utf8Type = "com.apple.metadata.datatype.UTF-8"

    /// The common items of the container's metadata: title, artist, album, creation date, artwork.
    static func common(_ metadata: MediaMetadata) -> [AVMetadataItem] {
        metadata.commonMetadata.map { item in
            let key = AVMetadataKey(rawValue: item.commonKey.rawValue)
            if let bytes = item.dataValue {
                return AVMetadataItem(
                    keySpace: .common, key: key.rawValue, commonKey: key, stringValue: nil, dataValue: Data(bytes),
                    dataType: metadata.artwork?.codec == "png"
                        ? "com.apple.metadata.datatype.PNG" : "com.apple.metadata.datatype.JPEG")
            }
            return AVMetadataItem(
                keySpace: .common, key: key.rawValue, commonKey: key, stringValue: item.stringValue, dataValue: nil,
                dataType: utf8Type)
        }
    }

    /// Every tag of the container, in its order, under ``AVMetadataKeySpace/playctlContainerTags`` (with the common
    /// key of those that have one), then the artwork.
    static func all(_ metadata: MediaMetadata) -> [AVMetadataItem] {
        let commonKeys: [String: AVMetadataKey] = [
            "title": .commonKeyTitle, "artist": .commonKeyArtist, "album_artist": .commonKeyArtist,
            "album": .commonKeyAlbumName, "date": .commonKeyCreationDate, "creation_time": .commonKeyCreationDate,
        ]
        let tags = metadata.tags.map { tag in
            AVMetadataItem(
                keySpace: .playctlContainerTags, key: tag.key, commonKey: commonKeys[tag.key], stringValue: tag.value,
                dataValue: nil, dataType: utf8Type)
        }
        return tags + common(metadata).filter { $0.commonKey == .commonKeyArtwork }
    }
}
