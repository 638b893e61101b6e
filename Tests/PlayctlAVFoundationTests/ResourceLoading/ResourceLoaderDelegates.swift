import AVFoundation
import Locking
import PlaybackTesting

/// App-style resource loader delegates for the tests: each serves `Media/<clip>` under a custom scheme its own way
/// and records what it was asked, on its own serial queue.
class RecordingLoaderDelegate: NSObject, AVAssetResourceLoaderDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.resource-loader")
    let bytes: Data
    /// What the delegate was asked and told, in order ("info", "data OFFSET+LENGTH", "cancel OFFSET+LENGTH").
    let log = Locked([String]())
    /// The requests it was told are cancelled.
    let cancelled = Locked([AVAssetResourceLoadingRequest]())

    init(clip: String) throws {
        bytes = Data(try MediaFixtures.bytes(clip))
    }

    static func describe(_ request: AVAssetResourceLoadingRequest) -> String {
        let data = request.dataRequest.map { "\($0.requestedOffset)+\($0.requestedLength)" } ?? "-"
        return request.contentInformationRequest != nil ? "info \(data)" : "data \(data)"
    }

    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AVAssetResourceLoadingRequest
    ) -> Bool {
        log.withLock { $0.append(Self.describe(loadingRequest)) }
        if let information = loadingRequest.contentInformationRequest {
            information.contentType = "public.mpeg-4"
            information.contentLength = Int64(bytes.count)
            information.isByteRangeAccessSupported = true
        }
        return answer(loadingRequest)
    }

    /// How this delegate answers (after recording the request and filling the content information).
    func answer(_ request: AVAssetResourceLoadingRequest) -> Bool { false }

    func resourceLoader(
        _ resourceLoader: AVAssetResourceLoader, didCancel loadingRequest: AVAssetResourceLoadingRequest
    ) {
        log.withLock { $0.append("cancel \(Self.describe(loadingRequest))") }
        cancelled.withLock { $0.append(loadingRequest) }
    }

    /// The requested range of `request`, clipped to the file.
    func range(of request: AVAssetResourceLoadingRequest) -> Range<Int> {
        guard let data = request.dataRequest else { return 0..<0 }
        let start = Int(data.requestedOffset)
        return start..<min(bytes.count, start + data.requestedLength)
    }
}

/// Serves each request `piece` bytes at a time, each after `delay`, as a caching player reading a slow disk does.
final class SlowPiecesDelegate: RecordingLoaderDelegate, @unchecked Sendable {
    let piece: Int
    let delay: DispatchTimeInterval
    /// The largest `currentOffset - requestedOffset` seen after a response, against the request's length.
    let overruns = Locked(0)

    init(clip: String, piece: Int, delay: DispatchTimeInterval) throws {
        self.piece = piece
        self.delay = delay
        try super.init(clip: clip)
    }

    override func answer(_ request: AVAssetResourceLoadingRequest) -> Bool {
        serve(request, from: range(of: request).lowerBound)
        return true
    }

    private func serve(_ request: AVAssetResourceLoadingRequest, from offset: Int) {
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            guard !request.isCancelled, let data = request.dataRequest else { return }
            let end = range(of: request).upperBound
            let upTo = min(end, offset + piece)
            data.respond(with: bytes.subdata(in: offset..<upTo))
            if upTo < end {
                serve(request, from: upTo)
            } else {
                request.finishLoading()
            }
        }
    }
}

/// Answers every request with the whole rest of the file in one `respond(with:)`, at once.
final class WholeRestDelegate: RecordingLoaderDelegate, @unchecked Sendable {
    /// For each data request: (requestedLength, currentOffset - requestedOffset after the response).
    let answered = Locked([(asked: Int, taken: Int64)]())

    override func answer(_ request: AVAssetResourceLoadingRequest) -> Bool {
        guard let data = request.dataRequest else { return false }
        data.respond(with: bytes.subdata(in: Int(data.requestedOffset)..<bytes.count))
        answered.withLock { $0.append((data.requestedLength, data.currentOffset - data.requestedOffset)) }
        request.finishLoading()
        return true
    }
}

/// Gives the content information, then fails every data request with an error of its own.
final class FailingDelegate: RecordingLoaderDelegate, @unchecked Sendable {
    override func answer(_ request: AVAssetResourceLoadingRequest) -> Bool {
        queue.async {
            if request.contentInformationRequest != nil {
                request.dataRequest?.respond(with: self.bytes.prefix(2))
                request.finishLoading()
            } else {
                request.finishLoading(
                    with: NSError(
                        domain: "TestDisk", code: 7, userInfo: [NSLocalizedDescriptionKey: "the disk is on fire"]))
            }
        }
        return true
    }
}

/// Accepts every request and never answers it.
final class SilentDelegate: RecordingLoaderDelegate, @unchecked Sendable {
    override func answer(_ request: AVAssetResourceLoadingRequest) -> Bool { true }
}

/// Answers every request at once and in full, except the first data request from byte 2 (the video reader's first
/// after the content information): of that one it gives the first `stallAfter` bytes and then nothing, until it
/// is cancelled.
final class StallingDelegate: RecordingLoaderDelegate, @unchecked Sendable {
    let stallAfter: Int

    init(clip: String, stallAfter: Int) throws {
        self.stallAfter = stallAfter
        try super.init(clip: clip)
    }

    override func answer(_ request: AVAssetResourceLoadingRequest) -> Bool {
        guard let data = request.dataRequest else { return false }
        let range = range(of: request)
        if request.contentInformationRequest == nil, range.lowerBound == 2 {
            data.respond(with: bytes.subdata(in: 2..<(2 + stallAfter)))
            return true
        }
        data.respond(with: bytes.subdata(in: range))
        request.finishLoading()
        return true
    }
}
