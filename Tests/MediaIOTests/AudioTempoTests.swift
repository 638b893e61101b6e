import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Time-stretching audio with atempo: length follows the rate, pitch is kept")
struct AudioTempoTests {
    /// a.mp4's audio track (a 440 Hz sine, 6 s, 48 kHz stereo), decoded whole.
    static func decodeSine() throws -> [AudioBuffer] {
        let reader = try AudioSampleReader(url: MediaFixtures.path("a.mp4"))
        var buffers: [AudioBuffer] = []
        while let buffer = try reader.nextBuffer() { buffers.append(buffer) }
        try #require(!buffers.isEmpty)
        try #require(buffers[0].sampleRate == 48_000 && buffers[0].channels == 2)
        return buffers
    }

    /// Frequency of a signal from its zero crossings: the mono mix of `samples` between the two fractions of its
    /// length (a steady section, away from the fade-in of the codec and the filter's edges).
    static func frequency(
        _ samples: [Float], channels: Int, sampleRate: Int, from: Double = 0.2, to: Double = 0.8
    ) -> Double {
        let frames = samples.count / channels
        let mono = (0..<frames).map { i in (0..<channels).reduce(Float(0)) { $0 + samples[i * channels + $1] } }
        let start = Int(Double(frames) * from)
        let end = Int(Double(frames) * to)
        var crossings = 0
        for i in (start + 1)..<end where (mono[i - 1] < 0) != (mono[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(end - start) / Double(sampleRate))
    }

    /// Runs `buffers` through a stretcher at `rate` and flushes it.
    static func stretch(_ buffers: [AudioBuffer], rate: Double) throws -> [AudioBuffer] {
        let tempo = try AudioTempo(sampleRate: 48_000, channels: 2, rate: rate)
        var output: [AudioBuffer] = []
        for buffer in buffers { output += try tempo.process(buffer) }
        return output + tempo.flush()
    }

    @Test("the input's pitch is 440 Hz")
    func inputPitch() throws {
        let input = try Self.decodeSine()
        let frequency = Self.frequency(input.flatMap(\.samples), channels: 2, sampleRate: 48_000)
        #expect(abs(frequency - 440) < 440 * 0.02, "\(frequency) Hz")
    }

    @Test("output lasts input/rate (±3%) at 440 Hz (±2%)", arguments: [0.5, 2.0, 4.0, 0.25])
    func lengthAndPitch(rate: Double) throws {
        let input = try Self.decodeSine()
        let inputFrames = input.reduce(0) { $0 + $1.frameCount }
        let output = try Self.stretch(input, rate: rate)
        let outputFrames = output.reduce(0) { $0 + $1.frameCount }
        let expected = Double(inputFrames) / rate
        #expect(
            abs(Double(outputFrames) - expected) <= expected * 0.03,
            "rate \(rate): \(outputFrames) frames out of \(inputFrames), expected \(expected)")
        let frequency = Self.frequency(output.flatMap(\.samples), channels: 2, sampleRate: 48_000)
        #expect(abs(frequency - 440) <= 440 * 0.02, "rate \(rate): \(frequency) Hz")
        #expect(output.allSatisfy { $0.channels == 2 && $0.sampleRate == 48_000 })
    }

    @Test("output times are media times: they start at the input's, rise, and cover the input", arguments: [0.5, 2.0])
    func mediaTimes(rate: Double) throws {
        let input = try Self.decodeSine()
        let output = try Self.stretch(input, rate: rate)
        let first = try #require(output.first)
        let last = try #require(output.last)
        #expect(first.time == input[0].time)
        for (a, b) in zip(output, output.dropFirst()) {
            // Each buffer starts where the previous one ends, measured in media time.
            let mediaEnd = a.time.seconds + Double(a.frameCount) * rate / 48_000
            #expect(abs(b.time.seconds - mediaEnd) < 1.0 / 48_000 + 1e-9)
        }
        let inputEnd = input.last!.time.seconds + input.last!.duration.seconds
        let outputEnd = last.time.seconds + Double(last.frameCount) * rate / 48_000
        #expect(abs(outputEnd - inputEnd) < inputEnd * 0.03, "ends at \(outputEnd), input at \(inputEnd)")
    }

    @Test("rate 1 passes buffers through bit for bit")
    func passthrough() throws {
        let input = try Self.decodeSine()
        let output = try Self.stretch(input, rate: 1)
        #expect(output == input)
    }

    @Test("a rate change or reset drops the filter's state; bad rates are refused")
    func rateChangesAndErrors() throws {
        let input = try Self.decodeSine()
        let tempo = try AudioTempo(sampleRate: 48_000, channels: 2, rate: 2)
        for buffer in input.prefix(40) { _ = try tempo.process(buffer) }
        #expect(tempo.nextOutputTime != nil)
        try tempo.setRate(0.5)
        #expect(tempo.rate == 0.5 && tempo.nextOutputTime == nil)
        // Starting again mid-stream: output times start at the first buffer given after the change.
        let resumed = try input[40...].flatMap { try tempo.process($0) }
        #expect(resumed.first?.time == input[40].time)
        tempo.reset()
        #expect(tempo.flush().isEmpty)
        #expect(
            AudioTempo.chain(0.25) == [0.5, 0.5] && AudioTempo.chain(4) == [2, 2] && AudioTempo.chain(1.5) == [1.5])
        #expect(throws: MediaError.self) { try AudioTempo(sampleRate: 48_000, channels: 2, rate: 0) }
        #expect(throws: MediaError.self) { try tempo.setRate(.nan) }
    }

    @Test(
        "without keeping the pitch (varispeed) the output lasts input/rate and the pitch follows the rate",
        arguments: [2.0, 0.5])
    func varispeed(rate: Double) throws {
        let input = try Self.decodeSine()
        let inputFrames = input.reduce(0) { $0 + $1.frameCount }
        let tempo = try AudioTempo(sampleRate: 48_000, channels: 2, rate: rate, keepsPitch: false)
        var output: [AudioBuffer] = []
        for buffer in input { output += try tempo.process(buffer) }
        output += tempo.flush()
        let outputFrames = output.reduce(0) { $0 + $1.frameCount }
        let expected = Double(inputFrames) / rate
        #expect(abs(Double(outputFrames) - expected) <= expected * 0.03, "rate \(rate): \(outputFrames) frames")
        let frequency = Self.frequency(output.flatMap(\.samples), channels: 2, sampleRate: 48_000)
        #expect(abs(frequency - 440 * rate) <= 440 * rate * 0.02, "rate \(rate): \(frequency) Hz")
        #expect(output.allSatisfy { $0.channels == 2 && $0.sampleRate == 48_000 })
    }
}
