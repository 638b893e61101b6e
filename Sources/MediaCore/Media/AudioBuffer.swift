/// Decoded audio as 32-bit float samples, channels interleaved.
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples: frame 0 channel 0, frame 0 channel 1, ...
    public var samples: [Float]
    public var channels: Int
    public var sampleRate: Int
    /// Time of the first sample, measured from the start of the media.
    public var time: MediaTime

    public init(samples: [Float], channels: Int, sampleRate: Int, time: MediaTime) {
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
        self.time = time
    }

    /// Sample frames (one sample per channel) in the buffer.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }
    /// How long the buffer plays at rate 1.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int32(sampleRate)) }
}
