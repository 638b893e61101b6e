import Foundation
import Loading
import Locking
import MediaCore
import Posters

/// Pictures of an asset's video at given times, as AVFoundation's `AVAssetImageGenerator`, over playctl's
/// thumbnails (`Posters.ThumbnailGenerator`): each picture is a keyframe decoded from its own sample, or an exact
/// frame when the tolerances ask for one, scaled as FFmpeg's `scale` filter scales (bicubic) into a ``CGImage``.
///
/// - Tolerances: with both ``requestedTimeToleranceBefore`` and ``requestedTimeToleranceAfter`` zero the picture is
///   the frame on screen at the time (exact); otherwise the keyframe nearest the time when it lies within the
///   tolerances (infinite by default: always), else the exact frame.
/// - ``maximumSize``: `.zero` (the default) gives the video's own size; otherwise the picture fits in it, its aspect
///   ratio kept (a zero side is unbounded).
/// - ``appliesPreferredTrackTransform``: the picture turned as the video's display matrix says (90, 180 or 270
///   degrees; a mirrored matrix is not followed), ``maximumSize`` then bounding the turned picture; false (the
///   default) gives the coded picture.
/// - Not followed: assets of a custom scheme (read through an `AVAssetResourceLoader` delegate) fail with
///   `AVError.Code.fileFormatNotRecognized`.
///
/// One generator makes one picture at a time, on a thread of its own; its completion handlers run on that thread.
public final class AVAssetImageGenerator: @unchecked Sendable {
    /// How a request of ``generateCGImagesAsynchronously(forTimes:completionHandler:)`` ended.
    public enum Result: Int, Sendable {
        case succeeded = 0
        case failed = 1
        case cancelled = 2
    }

    public let asset: AVAsset
    public var appliesPreferredTrackTransform = false
    public var maximumSize = CGSize.zero
    public var requestedTimeToleranceBefore = CMTime.positiveInfinity
    public var requestedTimeToleranceAfter = CMTime.positiveInfinity

    /// The thumbnail generators made so far, by their options (one for keyframes, one for exact frames).
    private let generators = Locked<[ThumbnailOptions: ThumbnailGenerator]>([:])
    /// Bumped by ``cancelAllCGImageGeneration()``: requests made before it end as cancelled.
    private let generation = Locked<Int>(0)
    private let work = DispatchQueue(label: "playctl.avassetimagegenerator")

    public init(asset: AVAsset) {
        self.asset = asset
    }

    /// The picture for `time` and the time of the frame it shows.
    /// - Throws: an `NSError` of `AVFoundationErrorDomain` describing the failure (missing media, no video).
    public func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        let settings = self.settings
        return try await picture(at: time, settings)
    }

    /// The picture for `requestedTime`, blocking (deprecated on Apple platforms; never call it from Swift's
    /// cooperative pool): its time in `actualTime` when given.
    public func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let box = Locked<Swift.Result<(image: CGImage, actualTime: CMTime), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let settings = self.settings
        Task.detached {
            let result: Swift.Result<(image: CGImage, actualTime: CMTime), any Error>
            do {
                result = .success(try await self.picture(at: requestedTime, settings))
            } catch {
                result = .failure(error)
            }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        let picture = try box.withLock { $0 }!.get()
        actualTime?.pointee = picture.actualTime
        return picture.image
    }

    /// Makes the pictures of `requestedTimes` (`NSValue`s of `CMTime`s) one after another, calling `handler` for
    /// each, in order, on the generator's thread: `(requestedTime, image, actualTime, result, error)`. Requests not
    /// made when ``cancelAllCGImageGeneration()`` is called end with `.cancelled`.
    public func generateCGImagesAsynchronously(
        forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler
    ) {
        let times = requestedTimes.map(\.timeValue)
        let settings = self.settings
        let started = generation.withLock { $0 }
        Task.detached {
            for time in times {
                guard self.generation.withLock({ $0 }) == started else {
                    self.work.sync { handler(time, nil, .invalid, .cancelled, nil) }
                    continue
                }
                do {
                    let picture = try await self.picture(at: time, settings)
                    self.work.sync { handler(time, picture.image, picture.actualTime, .succeeded, nil) }
                } catch {
                    self.work.sync { handler(time, nil, .invalid, .failed, error) }
                }
            }
        }
    }

    /// Cancels the requests of ``generateCGImagesAsynchronously(forTimes:completionHandler:)`` not made yet.
    public func cancelAllCGImageGeneration() {
        generation.withLock { $0 += 1 }
    }

    // MARK: - Making a picture

    /// The properties as a request reads them when it is made.
    private struct Settings: Sendable {
        var before: CMTime
        var after: CMTime
        var maximumSize: CGSize
        var appliesTransform: Bool
    }

    private var settings: Settings {
        Settings(
            before: requestedTimeToleranceBefore, after: requestedTimeToleranceAfter, maximumSize: maximumSize,
            appliesTransform: appliesPreferredTrackTransform)
    }

    private func picture(at time: CMTime, _ settings: Settings) async throws -> (image: CGImage, actualTime: CMTime) {
        let (before, after, maximumSize) = (settings.before, settings.after, settings.maximumSize)
        guard time.isNumeric else { throw AVPlayerItem.nsError("the requested time \(time) is not a number") }
        let url = asset.engineURL
        guard !url.contains("://") || RemoteLoading.isRemote(url) else {
            throw NSError(
                domain: AVFoundationErrorDomain, code: AVError.Code.fileFormatNotRecognized.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "\(url): images of a custom scheme's asset are not made"])
        }
        let tracks = try await asset.load(.tracks)
        guard let video = tracks.first(where: { $0.mediaType == .video }) else {
            throw AVPlayerItem.nsError("\(url): no video track to make an image of")
        }
        let turns = settings.appliesTransform ? ((video.rotation / 90) % 4 + 4) % 4 : 0
        // The coded picture's size fitted so that the turned picture fits `maximumSize`.
        let bound = turns % 2 == 1 ? CGSize(width: maximumSize.height, height: maximumSize.width) : maximumSize
        let (width, height) = Self.size(of: video.naturalSize, fitting: bound)
        let seconds = time.seconds
        let exact = before == .zero && after == .zero
        var thumbnail = try await generator(width: width, height: height, exact: exact).thumbnail(at: seconds)
        if !exact, !Self.within(thumbnail.time.seconds, of: seconds, before: before, after: after) {
            thumbnail = try await generator(width: width, height: height, exact: true).thumbnail(at: seconds)
        }
        let rgba = turns == 0 ? thumbnail.rgba : thumbnail.rgba.rotated(clockwise: turns * 90)
        guard
            let image = CGImage(
                width: rgba.width, height: rgba.height, bytesPerRow: rgba.width * 4, rgba: Data(rgba.bytes))
        else { throw AVPlayerItem.nsError("\(url): the picture at \(seconds) s has no pixels") }
        return (image, CMTime(thumbnail.time))
    }

    private func generator(width: Int, height: Int, exact: Bool) throws -> ThumbnailGenerator {
        let options = ThumbnailOptions(width: width, height: height, exact: exact)
        let url = asset.engineURL
        return generators.withLock { generators in
            if let made = generators[options] { return made }
            let made = ThumbnailGenerator(url: url, options: options)
            generators[options] = made
            return made
        }
    }

    /// Whether `actual` lies in `[requested - before, requested + after]`.
    static func within(_ actual: Double, of requested: Double, before: CMTime, after: CMTime) -> Bool {
        let low = before.isPositiveInfinity ? -Double.infinity : requested - before.seconds
        let high = after.isPositiveInfinity ? Double.infinity : requested + after.seconds
        return actual >= low - 1e-9 && actual <= high + 1e-9
    }

    /// The picture's size: the video's, or fitted in `maximum` (aspect ratio kept; a zero side unbounded), even
    /// sides of at least 2 (4:2:0 pictures are scaled in pairs of pixels).
    static func size(of natural: CGSize, fitting maximum: CGSize) -> (Int, Int) {
        let width = max(Double(natural.width), 2)
        let height = max(Double(natural.height), 2)
        var scale = 1.0
        if maximum.width > 0 { scale = min(scale, Double(maximum.width) / width) }
        if maximum.height > 0 { scale = min(scale, Double(maximum.height) / height) }
        func even(_ value: Double) -> Int { max(2, Int((value * scale / 2).rounded()) * 2) }
        return (even(width), even(height))
    }
}

/// What ``AVAssetImageGenerator/generateCGImagesAsynchronously(forTimes:completionHandler:)`` calls for each time.
public typealias AVAssetImageGeneratorCompletionHandler =
    @Sendable (
        CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, (any Error)?
    ) -> Void
