import CFFmpeg
import PlaybackTesting
import Testing

@testable import MediaIO

@Suite("Disposable packets: the pictures an exact seek's pre-roll leaves out")
struct DisposablePacketsTests {
    /// Every video packet of `clip`, each with whether libavcodec decodes a picture from it when told to skip the
    /// pictures nothing references (`AVDISCARD_NONREF`): the ground truth the classifier must agree with.
    static func packets(
        _ clip: String
    ) throws -> (packets: [Packet], decoded: Set<Int64>, classifier: DisposablePackets) {
        let demuxer = try Demuxer(url: MediaFixtures.path(clip))
        let track = try #require(demuxer.videoTrack)
        demuxer.discardAllStreams(except: track.index)
        let decoder = try Decoder(demuxer: demuxer, stream: track.index, threads: 1)
        var packets: [Packet] = []
        var decoded = Set<Int64>()
        func receive() throws {
            while case .frame(let raw) = try decoder.receive() {
                decoded.insert(raw.pointee.pts)
                var owned: UnsafeMutablePointer<AVFrame>? = raw
                av_frame_free(&owned)
            }
        }
        while true {
            let packet = Packet()
            guard try demuxer.read(into: packet) else { break }
            guard packet.streamIndex == track.index else { continue }
            packets.append(packet)
            decoder.skipsNonReferenceFrames = !packet.isKeyframe
            _ = decoder.send(packet)
            try receive()
        }
        _ = decoder.send(nil)
        try receive()
        return (packets, decoded, DisposablePackets(parameters: demuxer.stream(track.index).pointee.codecpar))
    }

    @Test(
        "an H.264 packet is disposable exactly when the decoder skips its picture",
        arguments: ["a.mp4", "b.mp4", "rotated.mp4", "offset.ts"])
    func agreesWithTheDecoder(clip: String) throws {
        let (packets, decoded, classifier) = try Self.packets(clip)
        var disposable = 0
        for packet in packets {
            let pts = try #require(packet.pts)
            #expect(classifier.isDisposable(packet) == !decoded.contains(pts), "\(clip) packet at \(pts)")
            if classifier.isDisposable(packet) { disposable += 1 }
        }
        #expect(
            disposable > packets.count / 10,
            "\(clip): B-frames that nothing references, \(disposable) of \(packets.count)")
    }

    @Test("other codecs are left to the decoder's own skipping")
    func otherCodecs() throws {
        let (packets, _, classifier) = try Self.packets("c.webm")
        #expect(!packets.isEmpty && packets.allSatisfy { !classifier.isDisposable($0) })
    }
}
