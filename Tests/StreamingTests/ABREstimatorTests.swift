import Streaming
import Testing

@Suite("ABR bandwidth estimator")
struct ABREstimatorTests {
    /// `seconds` of downloads at `bitsPerSecond`, in samples of `each` seconds.
    private func feed(_ estimator: inout BandwidthEstimator, _ bitsPerSecond: Double, for seconds: Double, each: Double)
    {
        var fed = 0.0
        while fed < seconds {
            let counted1 = estimator.sample(bytes: ABRTestLadder.bytes(bitsPerSecond, each), seconds: each)
            #expect(counted1)
            fed += each
        }
    }

    private func near(_ value: Double?, _ expected: Double, within fraction: Double = 0.01) -> Bool {
        guard let value else { return false }
        return abs(value - expected) <= expected * fraction
    }

    @Test("before the first sample: no estimate, and the default (500 kbit/s) or the one given")
    func defaults() {
        let estimator = BandwidthEstimator()
        #expect(estimator.estimate == nil)
        #expect(estimator.estimate(default: 1_000_000) == 1_000_000)
        #expect(estimator.estimate() == 500_000)
        #expect(BandwidthEstimator.defaultEstimate == 500_000)
    }

    @Test("one sample is the estimate itself, fast and slow alike")
    func firstSample() {
        var estimator = BandwidthEstimator()
        let counted2 = estimator.sample(bytes: 500_000, seconds: 2)
        #expect(counted2)
        #expect(near(estimator.estimate, 2_000_000, within: 1e-9))
        #expect(near(estimator.fastEstimate, 2_000_000, within: 1e-9))
        #expect(near(estimator.slowEstimate, 2_000_000, within: 1e-9))
    }

    @Test("downloads under the minimum bytes and nonsense are ignored")
    func ignored() {
        var estimator = BandwidthEstimator()
        let counted3 = estimator.sample(bytes: 10_000, seconds: 0.001)
        #expect(!counted3)
        let counted4 = estimator.sample(bytes: 16_383, seconds: 0.1)
        #expect(!counted4)
        let counted5 = estimator.sample(bytes: 1_000_000, seconds: -1)
        #expect(!counted5)
        let counted6 = estimator.sample(bytes: 1_000_000, seconds: .nan)
        #expect(!counted6)
        let counted7 = estimator.sample(bytes: -5, seconds: 1)
        #expect(!counted7)
        #expect(estimator.estimate == nil)
        #expect(estimator.sampleCount == 0)
        let counted8 = estimator.sample(bytes: 16_384, seconds: 0.1)
        #expect(counted8)
        #expect(estimator.sampleCount == 1)
        #expect(near(estimator.estimate, 16_384 * 8 / 0.1))
    }

    @Test("a download of no measurable time counts as the minimum time, not an unbounded rate")
    func minimumTime() {
        var estimator = BandwidthEstimator()
        let counted9 = estimator.sample(bytes: 100_000, seconds: 0)
        #expect(counted9)
        #expect(near(estimator.estimate, 100_000 * 8 / 0.05))
    }

    @Test("half-lives in seconds of download: after a step up, the fast average is halfway in 3 s, the slow in 9 s")
    func halfLives() {
        var estimator = BandwidthEstimator()
        feed(&estimator, 1_000_000, for: 60, each: 2)
        #expect(near(estimator.estimate, 1_000_000))
        feed(&estimator, 3_000_000, for: 3, each: 3)
        #expect(near(estimator.fastEstimate, 2_000_000))
        let fast = estimator.fastEstimate ?? 0
        let slow = estimator.slowEstimate ?? 0
        #expect(fast - 1_000_000 > 2 * (slow - 1_000_000), "the fast average moves more than the slow one")
        #expect(estimator.estimate == slow, "after a rise the estimate is the lower, slow one")
        feed(&estimator, 3_000_000, for: 6, each: 3)
        #expect(near(estimator.slowEstimate, 2_000_000))
        #expect(near(estimator.fastEstimate, 2_750_000))
    }

    @Test("after a step down the estimate follows the fast average (the lower one)")
    func stepDown() {
        var estimator = BandwidthEstimator()
        feed(&estimator, 8_000_000, for: 60, each: 2)
        feed(&estimator, 1_500_000, for: 4, each: 2)
        let fast = estimator.fastEstimate ?? 0
        let slow = estimator.slowEstimate ?? 0
        #expect(fast < slow)
        #expect(estimator.estimate == fast)
        #expect(8_000_000 - fast > 2 * (8_000_000 - slow))
    }

    @Test("a sample weighs by its download time: a long one moves the estimate more than a short one at the same rate")
    func weighting() {
        var base = BandwidthEstimator()
        feed(&base, 2_000_000, for: 60, each: 2)
        var short = base
        var long = base
        let counted10 = short.sample(bytes: ABRTestLadder.bytes(8_000_000, 0.5), seconds: 0.5)
        #expect(counted10)
        let counted11 = long.sample(bytes: ABRTestLadder.bytes(8_000_000, 6), seconds: 6)
        #expect(counted11)
        #expect((short.fastEstimate ?? 0) < (long.fastEstimate ?? 0))
        #expect((short.fastEstimate ?? 0) > 2_000_000)
    }

    @Test("a rise is believed once the last 3 downloads all showed it; one fast download is not enough")
    func riseConfirmation() {
        var estimator = BandwidthEstimator()
        var hlsOnly = BandwidthEstimator(riseConfirmationSamples: 0)
        feed(&estimator, 1_500_000, for: 60, each: 2)
        feed(&hlsOnly, 1_500_000, for: 60, each: 2)
        let fastDownload = ABRTestLadder.bytes(8_000_000, 0.2)
        estimator.sample(bytes: fastDownload, seconds: 0.2)
        #expect(estimator.estimate == estimator.slowEstimate, "one fast download does not raise it")
        estimator.sample(bytes: fastDownload, seconds: 0.2)
        estimator.sample(bytes: fastDownload, seconds: 0.2)
        #expect(estimator.sampleCount == 33)
        #expect(near(estimator.estimate, 8_000_000))
        #expect((estimator.slowEstimate ?? 0) < 2_000_000, "while the slow average still lags")
        for _ in 0..<3 { hlsOnly.sample(bytes: fastDownload, seconds: 0.2) }
        #expect(hlsOnly.estimate == hlsOnly.slowEstimate, "without the rule: hls.js's estimate")
        estimator.sample(bytes: ABRTestLadder.bytes(1_000_000, 2), seconds: 2)
        #expect((estimator.estimate ?? 0) < 2_000_000, "a drop shows at once")
    }
}
