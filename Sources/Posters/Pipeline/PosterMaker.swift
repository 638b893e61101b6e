import Dispatch
import Loading
import MediaIO

/// Makes one poster on the calling thread (a pipeline's worker): demux, decode, scale, each stage timed, the
/// waits for bytes counted apart.
struct PosterMaker {
    struct Made {
        let image: VideoImage
        let width: Int
        let height: Int
        let decodedWidth: Int
        let decodedHeight: Int
        let time: MediaTime
    }

    let request: PosterRequest
    let source: TimedByteSource
    let url: String

    /// Seconds since `start` (uptime nanoseconds).
    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func make(timings: inout PosterTimings) throws(MediaError) -> Made {
        var start = DispatchTime.now().uptimeNanoseconds
        var waited = source.waitSeconds
        if let remote = source.inner as? RemoteByteSource { try limitFetches(of: remote) }
        var demuxer = try Demuxer(url: url, source: source)
        // An audio file's poster is its artwork (its attached picture), decoded as an image.
        if demuxer.videoTrack == nil, let artwork = demuxer.metadata.artwork {
            demuxer = try Demuxer(url: url, source: MemoryByteSource(artwork.bytes))
        }
        timings.demux = max(Self.seconds(since: start) - (source.waitSeconds - waited), 0)

        guard let track = demuxer.videoTrack else {
            throw MediaError(.noDecodableStream, url: url, operation: .probe, reason: "no picture in it")
        }
        let rotation = ((track.rotation % 360) + 360) % 360
        let turned = rotation == 90 || rotation == 270
        let coded = (width: track.width ?? 0, height: track.height ?? 0)
        let shown = turned ? (width: coded.height, height: coded.width) : coded
        let scale = Self.scale(from: shown, to: request)

        start = DispatchTime.now().uptimeNanoseconds
        waited = source.waitSeconds
        let frame: VideoFrame
        if StillDecoder.isImage(demuxer) {
            frame = try StillDecoder.decodeImage(demuxer, reduction: StillDecoder.reduction(forScale: scale))
        } else {
            frame = try StillDecoder.decodeVideoFrame(
                demuxer, at: request.time.map { MediaTime(printedSeconds: $0) }, exact: request.exact)
        }
        timings.decode = max(Self.seconds(since: start) - (source.waitSeconds - waited), 0)

        start = DispatchTime.now().uptimeNanoseconds
        // The frame as decoded (a reduced decode is smaller than the track says), shown turned.
        let decodedShown =
            turned ? (width: frame.height, height: frame.width) : (width: frame.width, height: frame.height)
        let fullShown = shown.width > 0 && shown.height > 0 ? shown : decodedShown
        let target = Self.targetSize(of: fullShown, for: request)
        // Scaled so that the turned picture has `target.scaled` size.
        let scaled = target.scaled
        let converter = FrameConverter()
        var image = try converter.convert(
            frame, to: request.format.pixelFormat, width: turned ? scaled.height : scaled.width,
            height: turned ? scaled.width : scaled.height)
        if rotation != 0 || track.mirrored { image = image.oriented(mirrored: track.mirrored, clockwise: rotation) }
        if target.crop != (image.width, image.height) { image = Self.crop(image, to: target.crop) }
        timings.scale = Self.seconds(since: start)
        return Made(
            image: image, width: fullShown.width, height: fullShown.height, decodedWidth: decodedShown.width,
            decodedHeight: decodedShown.height, time: frame.time)
    }

    /// The factor the picture is scaled by: the fit's (inside the size) or the fill's (covering it).
    static func scale(from size: (width: Int, height: Int), to request: PosterRequest) -> Double {
        guard size.width > 0, size.height > 0 else { return 1 }
        let sx = request.width.map { Double($0) / Double(size.width) }
        let sy = request.height.map { Double($0) / Double(size.height) }
        switch (sx, sy) {
        case (nil, nil): return 1
        case (let x?, nil): return x
        case (nil, let y?): return y
        case (let x?, let y?): return request.fit == .fit ? min(x, y) : max(x, y)
        }
    }

    /// The size the picture is scaled to, and the size it is then cropped to (the same for `fit`).
    static func targetSize(
        of size: (width: Int, height: Int), for request: PosterRequest
    ) -> (scaled: (width: Int, height: Int), crop: (Int, Int)) {
        let s = scale(from: size, to: request)
        let scaled = (
            width: max(Int((Double(size.width) * s).rounded()), 1),
            height: max(Int((Double(size.height) * s).rounded()), 1)
        )
        guard request.fit == .fill, let width = request.width, let height = request.height else {
            return (scaled, (scaled.width, scaled.height))
        }
        return (scaled, (min(width, scaled.width), min(height, scaled.height)))
    }

    /// The centre `size` of a packed 4-byte image.
    static func crop(_ image: VideoImage, to size: (Int, Int)) -> VideoImage {
        let (width, height) = size
        let x0 = (image.width - width) / 2
        let y0 = (image.height - height) / 2
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let stride = image.bytesPerRow[0]
        image.bytes.withUnsafeBytes { source in
            bytes.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    let from = source.baseAddress! + (y0 + y) * stride + x0 * 4
                    (target.baseAddress! + y * width * 4).copyMemory(from: from, byteCount: width * 4)
                }
            }
        }
        return VideoImage(
            width: width, height: height, pixelFormat: image.pixelFormat, bytes: bytes, planeOffsets: [0],
            bytesPerRow: [width * 4], time: image.time)
    }
}
