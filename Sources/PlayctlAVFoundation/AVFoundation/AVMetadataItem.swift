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
    /// ID3's frames (timed metadata in MPEG-TS and HLS): the key is the frame id (`TXXX`, `TIT2`, `PRIV`, ...).
    public static let id3 = AVMetadataKeySpace(rawValue: "org.id3")
}

/// A key of ``AVMetadataItem/extraAttributes``, as `AVMetadataExtraAttributeKey`.
public struct AVMetadataExtraAttributeKey: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// More about the value: an ID3 frame's description or owner.
    public static let info = AVMetadataExtraAttributeKey(rawValue: "info")
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
    /// An ID3 `TXXX` frame (user text: its description in ``AVMetadataItem/extraAttributes``).
    public static let id3MetadataUserText = AVMetadataIdentifier(rawValue: "id3/TXXX")
    /// An ID3 `TIT2` frame (the title).
    public static let id3MetadataTitleDescription = AVMetadataIdentifier(rawValue: "id3/TIT2")
    /// An ID3 `PRIV` frame (private data: its owner in ``AVMetadataItem/extraAttributes``).
    public static let id3MetadataPrivate = AVMetadataIdentifier(rawValue: "id3/PRIV")
    /// An ID3 `WXXX` frame (a user URL).
    public static let id3MetadataUserURL = AVMetadataIdentifier(rawValue: "id3/WXXX")
    /// An ID3 `COMM` frame (a comment).
    public static let id3MetadataComments = AVMetadataIdentifier(rawValue: "id3/COMM")
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
        dataValue: Data?, dataType: String, time: CMTime = .invalid, duration: CMTime = .invalid, info: String? = nil
    ) {
        self.time = time
        self.duration = duration
        self.info = info
        self.keySpace = keySpace
        self.keyText = key
        self.identifier = AVMetadataIdentifier(
            rawValue: "\(keySpace == .common ? "common" : keySpace == .id3 ? "id3" : keySpace.rawValue)/\(key)")
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

    /// When a timed item (of an ``AVTimedMetadataGroup``) applies; invalid for the asset's own metadata.
    public let time: CMTime
    /// How long a timed item applies, when its container says; invalid otherwise.
    public let duration: CMTime
    /// What the value does not say: an ID3 `TXXX`, `WXXX` or `COMM` frame's description, a `PRIV` frame's owner,
    /// under ``AVMetadataExtraAttributeKey/info``; nil when there is none.
    public var extraAttributes: [AVMetadataExtraAttributeKey: Any]? {
        info.map { [AVMetadataExtraAttributeKey.info: $0] }
    }
    private let info: String?
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
