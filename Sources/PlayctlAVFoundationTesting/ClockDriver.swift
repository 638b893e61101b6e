import PictureInPicture
import Playback
import PlayctlAVFoundation

/// Drives the virtual time of code written against AVFoundation: a `ManualClock` that every `AVPlayer`,
/// `AVPictureInPictureController` and `AVAudioSession.sharedInstance()` made inside ``run(_:)`` follows (through
/// ``PlayctlAVFoundation/withConfiguration(_:operation:)-swift.type.method``), so app code stays unchanged.
///
/// ```text
/// let driver = ClockDriver()
/// try await driver.run {
///     let player = AVPlayer(url: url)                         // on the driver's clock
///     player.play()
///     await driver.advance(by: 1)                             // plays one second, callbacks delivered
///     try await driver.run(until: { player.currentTime().seconds >= 3 }, limit: 10)
/// }
/// ```
public final class ClockDriver: Sendable {
    /// The clock.
    public let clock: ManualClock
    /// What objects made inside ``run(_:)`` use.
    public let configuration: PlayctlAVFoundation.Configuration

    /// The largest step ``advance(by:)`` takes, in 1/600 s: what happens during a step is seen at its end (a
    /// note's time, a main-queue block's turn), so small steps keep those close to when things happened.
    public let stepTicks: Int64

    /// A driver of a new manual clock; players decode audio only with `decodesAudio` (tests are quicker without).
    /// ``advance(by:)`` moves in steps of at most `step` seconds (a frame at 30 fps by default).
    public init(decodesAudio: Bool = false, step: Double = 1.0 / 30) {
        let clock = ManualClock()
        self.clock = clock
        stepTicks = max(1, Int64((step * 600).rounded()))
        configuration = PlayctlAVFoundation.Configuration(clock: .manual(clock), decodesAudio: decodesAudio)
    }

    /// The simulated Picture in Picture system (its app: the audio session, the lifecycle).
    public var pictureInPictureSystem: SimulatedPictureInPictureSystem { configuration.pictureInPictureSystem }

    /// The clock's time in seconds.
    public var now: Double { clock.now.seconds }

    /// Runs `body` with this driver's configuration in force.
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await PlayctlAVFoundation.withConfiguration(configuration, operation: body)
    }

    /// Settles at the current time first (what the test's own calls caused, and the app callbacks that follow from
    /// it, happen now), then moves the clock forward by `seconds` in steps of at most ``stepTicks`` (times stay in
    /// one timescale, 600); returns once every player, the Picture in Picture system and their callbacks have
    /// caught up.
    public func advance(by seconds: Double) async {
        await clock.advance(by: .zero)
        var remaining = Int64((seconds * 600).rounded())
        while remaining > 0 {
            let step = min(remaining, stepTicks)
            await clock.advance(by: MediaTime(value: step, timescale: 600))
            remaining -= step
        }
    }

    /// Advances in steps of `step` seconds until `condition` holds; false if it still does not after `limit`
    /// seconds of clock time.
    @discardableResult
    public func run(
        until condition: () async -> Bool, limit: Double, step: Double = 0.1,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        let deadline = now + limit
        await advance(by: 0)
        while !(await condition()) {
            if now >= deadline - 1e-9 { return false }
            await advance(by: min(step, deadline - now))
        }
        return true
    }
}
