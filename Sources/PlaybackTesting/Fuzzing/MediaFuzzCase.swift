// Part of PlaybackTesting, where it imports MediaIO, and compiled by scripts/fuzz.sh into the fuzzer's own module
// together with Sources/MediaCore and Sources/MediaIO, where there is no MediaIO module to import.
#if canImport(MediaIO)
import MediaIO
#endif

/// One fuzz case over the media layer, run by the libFuzzer entry (Fuzz/Media/FuzzMedia.swift) and, on the committed
/// corpus, by the Playback tests' `FuzzCorpusTests`: whatever the file holds, each step either works or throws a
/// `MediaError`; it never traps, hangs or leaks.
public enum MediaFuzzCase {
    /// Frames decoded after opening and after the seek: enough to run the decoder, few enough to stay fast.
    public static let framesToDecode = 6
    /// Timed metadata samples read at most.
    public static let samplesToRead = 16

    /// Opens `path`, decodes the first frame alone and a few video frames after it, seeks exactly to a time chosen from `seekSeed`, decodes on, and
    /// does the same for audio; reads the samples of a timed metadata track (ID3, mebx) and an MP4's emsg boxes.
    public static func run(path: String, seekSeed: UInt8) {
        guard let demuxer = try? Demuxer(url: path) else { return }
        // A target from before the start to past the end: 0/8 ... 11/8 of the duration, minus a little. (Durations
        // are capped: MediaTime(seconds:) takes only what fits its microseconds.)
        let duration = min(demuxer.duration?.seconds ?? 1, 1e9)
        let target = MediaTime(seconds: duration * Double(seekSeed % 12) / 8 - 0.01)
        if demuxer.videoTrack?.isDecodable == true, let reader = try? VideoFrameReader(demuxer: demuxer, threads: 1) {
            video(reader, target: target)
        }
        // The audio reader shares the demuxer (the video reader is done with it): from the start again.
        if demuxer.audioTrack?.isDecodable == true, let audio = try? AudioSampleReader(demuxer: demuxer) {
            try? audio.seek(to: .zero)
            for _ in 0..<framesToDecode { guard (try? audio.nextBuffer()) != nil else { break } }
            try? audio.seek(to: target)
            for _ in 0..<2 { guard (try? audio.nextBuffer()) != nil else { break } }
        }
        // Timed metadata, on a demuxer of its own (the reader discards the other streams); a mebx track's key table
        // read from the file's moov.
        if let track = demuxer.tracks.first(where: TimedMetadataReader.reads), let other = try? Demuxer(url: path) {
            let trackID = TimedMetadataReader.trackID(of: other, stream: track.index)
            let table = track.codec == "mebx" ? keyTable(path: path, trackID: trackID) : nil
            if let metadata = try? TimedMetadataReader(demuxer: other, stream: track.index, keyTable: table) {
                read(metadata)
            }
        }
        // An MP4's emsg boxes, walked from its bytes.
        if demuxer.formatName.hasPrefix("mov,"), let source = try? FileByteSource(path: path) {
            read(EventMessageReader(source: source, url: path))
        }
    }

    private static func keyTable(path: String, trackID: Int) -> MetadataKeyTable? {
        guard let source = try? FileByteSource(path: path) else { return nil }
        return (try? MetadataKeyTable.read(from: source, url: path, trackID: trackID)) ?? nil
    }

    private static func read(_ metadata: any TimedMetadataSource) {
        for _ in 0..<samplesToRead { guard (try? metadata.next()) != nil else { break } }
    }

    private static func video(_ reader: VideoFrameReader, target: MediaTime) {
        // As a player starts: the first frame alone (when the stream allows it), then the main decoder after it.
        _ = reader.decodeFirstFrameAlone()?.md5()
        for _ in 0..<framesToDecode {
            guard let frame = try? reader.nextFrame() else { break }
            _ = frame.md5()
        }
        guard let landing = try? reader.seek(to: target, mode: .exact) else { return }
        _ = landing.frame?.md5()
        for _ in 0..<2 { guard (try? reader.nextFrame()) != nil else { break } }
        _ = try? reader.seek(to: target, mode: .keyframe)
    }
}
