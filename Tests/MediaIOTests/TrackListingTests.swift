import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Tracks: languages, flags, and every audio track decoded as ffmpeg decodes it")
struct TrackListingTests {
    @Test("languages, titles, default and forced flags, codecs", arguments: TrackClips.clips)
    func listing(clip: String) throws {
        let demuxer = try Demuxer(url: TrackClips.path(clip))
        let tracks = demuxer.tracks
        #expect(tracks.map(\.kind) == [.video, .audio, .audio, .subtitle, .subtitle])
        #expect(tracks.map(\.language) == [nil, "eng", "fra", "eng", "fra"])
        #expect(tracks[1].isDefault && !tracks[2].isDefault)
        #expect(tracks[1].channels == 2 && tracks[2].channels == 2)
        #expect(!tracks.contains { $0.isBitmapSubtitle })
        if clip.hasSuffix(".mkv") {
            #expect(tracks.map(\.codec) == ["h264", "aac", "aac", "subrip", "ass"])
            #expect(tracks[2].title == "Français" && tracks[4].isForced && !tracks[3].isForced)
        } else {
            #expect(tracks.map(\.codec) == ["h264", "aac", "aac", "mov_text", "mov_text"])
        }
    }

    @Test("each audio track's PCM equals ffmpeg's (-map 0:a:N -f f32le)", arguments: TrackClips.clips)
    func audioTracks(clip: String) throws {
        for (number, stream) in [1, 2].enumerated() {
            let reader = try AudioSampleReader(url: TrackClips.path(clip), stream: stream)
            #expect(reader.track.index == stream)
            var bytes: [UInt8] = []
            while let buffer = try reader.nextBuffer() {
                buffer.samples.withUnsafeBytes { bytes += $0 }
            }
            #expect(MD5.hex(of: bytes) == (try TrackClips.audioMD5(clip, track: number)), "\(clip) a:\(number)")
        }
    }

    @Test("a stream that is not audio is refused, naming the file")
    func notAudio() throws {
        let path = TrackClips.path("tracks.mkv")
        let error = #expect(throws: MediaError.self) { try AudioSampleReader(url: path, stream: 3) }
        #expect(error?.kind == .noDecodableStream && error?.url == path)
    }
}

extension TrackListingTests {
    /// MP4 times audio in samples: after a seek the samples equal a decode from the start exactly. Matroska times it
    /// in milliseconds, so a seek lands within one of them (48 samples) of where a decode from the start has them.
    @Test("after a seek, the samples from the target on are a decode from the start's", arguments: TrackClips.clips)
    func seekExact(clip: String) throws {
        let whole = try AudioSampleReader(url: TrackClips.path(clip), stream: 2)
        var reference: [Float] = []
        while let buffer = try whole.nextBuffer() { reference += buffer.samples }
        let reader = try AudioSampleReader(url: TrackClips.path(clip), stream: 2)
        for seconds in [1.234, 0.25, 2.5, 3.1] {
            let target = MediaTime(seconds: seconds)
            try reader.seek(to: target)
            let buffer = try #require(try reader.nextBuffer())
            #expect(abs(buffer.time.seconds - seconds) < 1.0 / 48_000)
            let position = Int(buffer.time.convertScale(48_000).value)
            let tolerance = clip.hasSuffix(".mkv") ? 48 : 0
            let found = (position - tolerance...position + tolerance).first { start in
                start >= 0 && (start + buffer.frameCount) * 2 <= reference.count
                    && Array(reference[start * 2..<(start + buffer.frameCount) * 2]) == buffer.samples
            }
            #expect(found != nil, "\(clip) at \(seconds): not within \(tolerance) samples of \(position)")
        }
    }
}
