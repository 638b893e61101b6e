import Foundation
import Loading
import Locking
import MediaIO
import Streaming

/// The decoding machinery of one item while a player uses it: its readers and pipeline threads.
/// Made on a loader thread (opening and probing block), used by the player's engine, stopped when the item leaves.
final class LoadedItem: @unchecked Sendable {
    let video: VideoPipeline?
    let audio: AudioPipeline?
    let tracks: [TrackInfo]
    /// The audio and subtitle options, and which of them the decoders play (changed by the engine, under its lock).
    let groups: [MediaSelectionGroup]
    var selection = MediaSelection()
    /// The selected subtitle option's decoding; nil with no subtitles selected. Replaced by the engine (under its
    /// lock) and read by `stop()` from any thread, so it has a lock of its own.
    var text: (any LegiblePipeline)? {
        get { textPipeline.withLock { $0 } }
        set { textPipeline.withLock { $0 = newValue } }
    }
    private let textPipeline = Locked<(any LegiblePipeline)?>(nil)
    /// The timed metadata's reading (ID3 in MPEG-TS, MP4 `mebx` tracks and `emsg` boxes); nil without any.
    private(set) var timedMetadata: MetadataPipeline?
    /// Makes the reader of a subtitle option selected later.
    let textReaders: TextReaderFactory
    /// Tags, chapters and artwork, read before any decoder thread reads the demuxer.
    var metadata = MediaMetadata()
    let duration: MediaTime
    let presentationSize: (width: Int, height: Int)?
    /// Nominal time between frames, used to tell a stall from a gap between frames.
    let frameInterval: Double
    /// The byte sources its readers opened (none when libavformat reads the file itself).
    let sources: OpenedSources
    /// The primary reader's source when its bytes come over a link (an http(s) item), and where the media's
    /// times lie in those bytes.
    let remote: (any ProgressiveByteSource)?
    let byteTimeline: ByteTimeline?
    /// Which reader feeds the audio decoder (its own, or the primary one when there is no video and the audio is
    /// in the primary reader's bytes).
    let audioReader: ByteSourceRequest.Reader
    /// What the audio decoder's demuxer numbers its streams less than ``tracks`` does: the primary demuxer's track
    /// count when the audio is an HLS or DASH rendition of its own (its tracks are listed after the primary's), else 0.
    let audioTrackOffset: Int

    private init(
        video: VideoPipeline?, audio: AudioPipeline?, tracks: [TrackInfo], groups: [MediaSelectionGroup],
        textReaders: TextReaderFactory, duration: MediaTime, presentationSize: (Int, Int)?, frameInterval: Double,
        sources: OpenedSources, remote: (any ProgressiveByteSource)?, byteTimeline: ByteTimeline?,
        audioTrackOffset: Int?
    ) {
        self.groups = groups
        self.textReaders = textReaders
        self.sources = sources
        self.remote = remote
        self.byteTimeline = byteTimeline
        self.audioReader = video == nil && audioTrackOffset == nil ? .primary : .audio
        self.audioTrackOffset = audioTrackOffset ?? 0
        self.video = video
        self.audio = audio
        self.tracks = tracks
        self.duration = duration
        self.presentationSize = presentationSize
        self.frameInterval = frameInterval
    }

    /// What an item is opened with: where its bytes come from, its sidecar subtitles, and how its selection is
    /// decided once its tracks are known.
    struct Request: Sendable {
        var url: String
        var name: String
        var withAudio: Bool
        /// The video decoder's threads (0: FFmpeg's choice).
        var videoThreads = 0
        /// Bytes of decoded pictures the video pipeline queues ahead of presentation.
        var decodedVideoBytes = Player.defaultDecodedVideoBytes
        var makeSource: PlayerItem.ByteSourceMaker?
        var loading: RemoteLoading?
        var decryptionKey: String?
        var sidecars: [SidecarSubtitle] = []
        /// The selection for the item's groups (the app's choice, else the player's criteria and defaults).
        var select: @Sendable ([MediaSelectionGroup]) -> MediaSelection = { _ in MediaSelection() }
    }

    /// Opens `request.url` and starts decoding from the beginning (blocking: call on a loader thread), the
    /// selected audio track and subtitles. Reads through sources `request.makeSource` makes when given, recorded
    /// in `sources` as they open.
    static func open(
        _ request: Request, sources: OpenedSources, onChange: @escaping @Sendable () -> Void
    ) throws(MediaError) -> LoadedItem {
        let (url, name, makeSource) = (request.url, request.name, request.makeSource)
        /// The source of one reader: the first demuxer (probe and video; audio too without video) or audio's own.
        var primary: (any ByteSource)?
        func source(_ reader: ByteSourceRequest.Reader) throws(MediaError) -> (any ByteSource)? {
            guard let makeSource else { return nil }
            let made = try makeSource(ByteSourceRequest(url: url, reader: reader))
            sources.add(made, for: reader)
            if reader == .primary { primary = made }
            return made
        }
        let demuxer = try Demuxer(url: url, source: source(.primary), decryptionKey: request.decryptionKey)
        let metadata = demuxer.metadata
        let videoTrack = demuxer.videoTrack
        // An HLS or DASH presentation whose audio is a rendition of its own: the audio reader reads it, through a
        // demuxer of its own on the presentation's timeline; its tracks are listed after the primary's.
        let rendition = try openAudioRendition(request.withAudio ? primary : nil, demuxer: demuxer) {
            () throws(MediaError) in
            try source(.audio)
        }
        let offset = demuxer.tracks.count
        let renditionTracks = rendition?.tracks.map { track in
            var listed = track
            listed.index += offset
            return listed
        }
        let tracks = demuxer.tracks + (renditionTracks ?? [])
        var textReaders = TextReaderFactory(
            url: url, makeSource: makeSource, loading: request.loading, decryptionKey: request.decryptionKey,
            sources: sources)
        if let stream = primary as? SegmentedStream {
            textReaders.renditions = stream.session.subtitleReaders
            // On the 90 kHz clock X-TIMESTAMP-MAP counts in (the demuxer's start is in microseconds).
            textReaders.presentationStart = MediaTime(value: demuxer.startTime, timescale: 1_000_000)
                .convertScale(90_000)
        }
        let groups = MediaSelectionRules.groups(
            tracks: tracks, sidecars: request.sidecars, renditions: textReaders.renditionOptions)
        var selection = request.select(groups)
        let audioTracks = renditionTracks ?? demuxer.tracks
        let selectedAudio = selection[.audible]?.trackIndex.flatMap { index in
            audioTracks.first { $0.index == index && $0.kind == .audio && $0.isDecodable }
        }
        let firstAudio = audioTracks.first { $0.kind == .audio }.flatMap { $0.isDecodable ? $0 : nil }
        let audioTrack = request.withAudio ? (selectedAudio ?? firstAudio) : nil
        /// The audio track's stream in the audio decoder's demuxer.
        let audioStream = audioTrack.map { $0.index - (rendition == nil ? 0 : offset) }
        let audible = groups.first { $0.characteristic == .audible }
        if let audioTrack, let option = audible?.options.first(where: { $0.trackIndex == audioTrack.index }) {
            selection[.audible] = option
        }
        let pacedByClock = (primary as? any ClockPacedByteSource)?.isPacedByClock == true
        // Read before any decoder thread reads the demuxer (a fragmented file's index grows as it is read).
        let remote = primary as? any ProgressiveByteSource
        let byteTimeline = remote.map { source in
            let track = videoTrack?.isDecodable == true ? videoTrack : demuxer.audioTrack
            return demuxer.byteTimeline(stream: track?.index ?? 0, totalLength: source.size)
        }
        var video: VideoPipeline?
        var audioDemuxer: Demuxer?
        if let track = videoTrack, track.isDecodable {
            // Audio reads through a demuxer of its own, so each pipeline moves at its own pace. It is opened from
            // this one's probe before the video thread starts reading this one.
            if let audioStream {
                if let rendition {
                    audioDemuxer = rendition
                } else {
                    audioDemuxer = try demuxer.reopen(source: source(.audio))
                }
                audioDemuxer?.discardAllStreams(except: audioStream)
            }
            // The video decoder reads this demuxer alone.
            demuxer.discardAllStreams(except: track.index)
            video = VideoPipeline(
                reader: try VideoFrameReader(demuxer: demuxer, threads: request.videoThreads),
                byteBudget: request.decodedVideoBytes,
                readInterruption: VideoPipeline.ReadInterruption(
                    interrupt: { sources.interruptReads(of: .primary) }, resume: { sources.resumeReads(of: .primary) }),
                onChange: onChange)
            // Decoding starts now: the first frame is decoded while the audio decoder opens. Not with a source
            // paced by a manual clock: there the load must be the only reader until its result is applied, so that
            // "its reader waits for the clock" means the load waits (the clock may move on), not a decoder it
            // started (``startDeferredDecoding()``).
            if !pacedByClock { video?.start(name: name) }
        } else if audioTrack != nil {
            audioDemuxer = rendition ?? demuxer
        }
        var audio: AudioPipeline?
        if let audioDemuxer {
            do throws(MediaError) {
                let reader = try AudioSampleReader(demuxer: audioDemuxer, stream: audioStream)
                audio = AudioPipeline(reader: reader, onChange: onChange)
            } catch {
                video?.stop()
                throw error
            }
        }
        guard video != nil || audio != nil else {
            throw MediaError(.noDecodableStream, url: url, operation: .probe, reason: "nothing this engine can play")
        }
        let duration =
            demuxer.isLive
            ? .indefinite : demuxer.duration ?? videoTrack?.duration ?? audioTrack?.duration ?? .indefinite
        let loaded = LoadedItem(
            video: video, audio: audio, tracks: tracks, groups: groups, textReaders: textReaders,
            duration: duration,
            presentationSize: videoTrack?.displaySize,
            frameInterval: 1 / (videoTrack?.frameRate ?? 30), sources: sources, remote: remote,
            byteTimeline: byteTimeline, audioTrackOffset: rendition == nil ? nil : offset)
        loaded.metadata = metadata
        loaded.selection = selection
        if let option = selection[.legible], option.isPlayable {
            loaded.text = textReaders.pipeline(for: option, onChange: onChange)
        }
        if let open = textReaders.timedMetadata(demuxer: demuxer, primary: primary) {
            loaded.timedMetadata = MetadataPipeline(open: open, onChange: onChange)
        }
        if pacedByClock {
            loaded.deferredStart = name
        } else {
            audio?.start(name: name)
            loaded.text?.start(name: name)
            loaded.timedMetadata?.start(name: name)
        }
        return loaded
    }

    /// The demuxer of `primary`'s audio rendition when it is an HLS or DASH stream whose session plays one
    /// (``StreamSession/audioRendition``), opened over the source `audioSource` makes (the `.audio` reader's), its
    /// start shared with `demuxer`'s; nil otherwise (muxed audio, a file, no audio wanted).
    private static func openAudioRendition(
        _ primary: (any ByteSource)?, demuxer: Demuxer, audioSource: () throws(MediaError) -> (any ByteSource)?
    ) throws(MediaError) -> Demuxer? {
        guard let stream = primary as? SegmentedStream, let rendition = stream.session.audioRendition else {
            return nil
        }
        guard let source = try audioSource() else { return nil }
        let url: String
        switch rendition.media {
        case .playlist(let playlist)?: url = playlist
        default: url = demuxer.url
        }
        let opened = try Demuxer(url: url, source: source, decryptionKey: demuxer.decryptionKey)
        demuxer.shareStartTime(with: opened)
        return opened
    }

    /// Whether the video decoder waits for bytes that only clock time will bring.
    var videoWaitsForClock: Bool { video != nil && sources.isWaitingForClock(.primary) }
    /// Whether the audio decoder waits for bytes that only clock time will bring.
    var audioWaitsForClock: Bool { audio != nil && sources.isWaitingForClock(audioReader) }
    /// Whether the subtitle decoder waits for bytes that only clock time will bring.
    var textWaitsForClock: Bool { text != nil && sources.isWaitingForClock(.text) }
    /// Whether the timed metadata reader waits for bytes that only clock time will bring.
    var metadataWaitsForClock: Bool { timedMetadata != nil && sources.isWaitingForClock(.metadata) }

    /// The name to start the decoding threads with, when the load left them for the engine to start (sources
    /// paced by a manual clock). Touched by the loader thread before the result is handed over, then by the engine.
    private(set) var deferredStart: String?

    /// Starts the decoding threads the load left unstarted (the engine calls it when it applies the load).
    func startDeferredDecoding() {
        guard let name = deferredStart else { return }
        deferredStart = nil
        video?.start(name: name)
        audio?.start(name: name)
        text?.start(name: name)
        timedMetadata?.start(name: name)
    }

    /// Asks the remote sources to fetch about `seconds` of media ahead of their readers (by the media's average
    /// byte rate; at least 1 MB).
    func setReadAhead(seconds: Double) {
        guard remote != nil, let total = byteTimeline?.totalLength, duration.isNumeric, duration.seconds > 0 else {
            return
        }
        let bytes = max(Int64(Double(total) / duration.seconds * seconds), 1 << 20)
        sources.forEachProgressive { $0.setReadAhead(bytes) }
    }

    func stop() {
        sources.closeAll()
        video?.stop()
        audio?.stop()
        text?.stop()
        timedMetadata?.stop()
    }

    deinit { stop() }
}
