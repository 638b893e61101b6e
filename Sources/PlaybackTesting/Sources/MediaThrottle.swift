import Foundation
import MediaIO
import Playback

/// Delivers an item's bytes at a limited rate of clock time, or not at all while paused, so that stalls happen on
/// demand. Under a manual clock the budget grows only when the clock advances, so stalls are deterministic.
///
/// Give it to `PlayerItem(url:throttle:)` (or its ``makeSource(_:)`` to `PlayerItem(url:source:)`). The rate applies
/// to each reader of the item (its video and its audio decoder each read through their own demuxer). Its sources are
/// ``ClockPacedByteSource``s: a player on a manual clock sees when its decoders wait for the clock.
public final class MediaThrottle: @unchecked Sendable, ManualClockParticipant {
    private let condition = NSCondition()
    private var bytesPerSecond: Double
    private var initialBytes: Int64
    /// Bytes taken by each reader: every reader has its own budget, so what one gets never depends on how fast
    /// another thread ran (the video and audio decoders read through demuxers of their own).
    private var consumed: [ObjectIdentifier: Int64] = [:]
    private var credited: Double = 0
    private var lastClock: Double
    private var paused = false
    private var blockObservers: [@Sendable () -> Void] = []
    private var waiting: [ObjectIdentifier: Int] = [:]
    private var closed: Set<ObjectIdentifier> = []
    private let clockSource: @Sendable () -> Double
    public let clockOrder: UInt64 = 0
    /// Which of the item's readers it throttles.
    public let readers: Readers

    /// The readers of an item a throttle applies to.
    public enum Readers: Sendable {
        /// Every reader.
        case all
        /// Only the audio decoder's own reader (of items with video: audio then arrives late while video does not).
        case audio
        /// Every reader but the audio decoder's own (the one that probes and feeds the video).
        case video

        func includes(_ reader: ByteSourceRequest.Reader) -> Bool {
            switch self {
            case .all: return true
            case .audio: return reader == .audio
            case .video: return reader != .audio
            }
        }
    }

    /// A throttle of `bytesPerSecond` of clock time, with `initialBytes` available at once (enough to open the
    /// file, say), for the item's `readers`. With a manual clock, time is the clock's; otherwise real time.
    public init(bytesPerSecond: Int, initialBytes: Int = 64 << 10, clock: ManualClock? = nil, readers: Readers = .all) {
        self.readers = readers
        self.bytesPerSecond = Double(bytesPerSecond)
        self.initialBytes = Int64(initialBytes)
        if let clock {
            clockSource = { clock.now.seconds }
        } else {
            let origin = ContinuousClock.now
            clockSource = { (ContinuousClock.now - origin) / .seconds(1) }
        }
        lastClock = clockSource()
        clock?.register(self)
    }

    /// Stops delivering bytes until `resume()`: readers block.
    public func pause() { update { $0.paused = true } }
    /// Delivers bytes again.
    public func resume() { update { $0.paused = false } }
    /// Changes the rate (bytes per second of clock time).
    public func setRate(_ bytesPerSecond: Int) { update { $0.bytesPerSecond = Double(bytesPerSecond) } }
    /// Unblocks `reader` for good (its player let go of it): its reads return 0.
    func close(_ reader: AnyObject) { update { $0.closed.insert(ObjectIdentifier(reader)) } }

    /// True while a reader waits and no byte is available to it: the decoders cannot progress until clock time
    /// passes (or `resume()`).
    public var isBlocked: Bool {
        condition.lock()
        defer { condition.unlock() }
        accrue()
        return waiting.keys.contains { !closed.contains($0) && (paused || available(for: $0) < 1) }
    }

    /// A source for one reader of an item: the item's file (or `base` when given), read through this throttle when
    /// it applies to `request.reader`. Give it to `PlayerItem(url:source:)`.
    public func makeSource(
        _ request: ByteSourceRequest, base: (any ByteSource)? = nil
    ) throws(MediaError)
        -> any ByteSource
    {
        let file: any ByteSource
        if let base { file = base } else { file = try FileByteSource(path: request.url) }
        guard readers.includes(request.reader) else { return file }
        return ThrottledByteSource(wrapping: file, throttle: self)
    }

    /// Whether `reader` waits for bytes that the throttle cannot give until clock time passes.
    func isBlocked(_ reader: AnyObject) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        accrue()
        let key = ObjectIdentifier(reader)
        return waiting[key] != nil && (paused || available(for: key) < 1) && !closed.contains(key)
    }

    public func clockDidAdvance(to time: MediaTime) async { update { _ in } }

    /// Takes up to `count` bytes of budget, waiting for at least one. Returns 0 when closed.
    func take(_ count: Int, for reader: AnyObject) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let key = ObjectIdentifier(reader)
        var registered = false
        defer {
            if registered {
                waiting[key]! -= 1
                if waiting[key] == 0 { waiting[key] = nil }
            }
        }
        while true {
            accrue()
            if closed.contains(key) { return 0 }
            let granted = min(Int64(count), paused ? 0 : available(for: key))
            if granted >= 1 {
                consumed[key, default: 0] += granted
                return Int(granted)
            }
            if !registered {
                // Stays registered until bytes come, so `isBlocked` never flickers while the reader waits.
                registered = true
                waiting[key, default: 0] += 1
                let observers = blockObservers
                condition.unlock()
                for observer in observers { observer() }
                condition.lock()
                continue
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.005))
        }
    }

    /// Calls `observer` whenever a reader starts waiting for bytes (a player's engine re-checks whether its
    /// decoders have settled).
    func addBlockObserver(_ observer: @escaping @Sendable () -> Void) {
        condition.lock()
        blockObservers.append(observer)
        condition.unlock()
    }

    private func available(for key: ObjectIdentifier) -> Int64 {
        initialBytes + Int64(credited) - consumed[key, default: 0]
    }

    private func accrue() {
        let now = clockSource()
        if now > lastClock {
            if !paused { credited += (now - lastClock) * bytesPerSecond }
            lastClock = now
        }
    }

    private func update(_ change: (MediaThrottle) -> Void) {
        condition.lock()
        accrue()
        change(self)
        condition.broadcast()
        condition.unlock()
    }
}

/// A source (a file, or an item's own source) read through a `MediaThrottle`.
final class ThrottledByteSource: ClockPacedByteSource, @unchecked Sendable {
    private let file: any ByteSource
    private let throttle: MediaThrottle

    init(wrapping source: any ByteSource, throttle: MediaThrottle) {
        file = source
        self.throttle = throttle
    }

    var size: Int64? { file.size }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let granted = throttle.take(buffer.count, for: self)
        guard granted > 0 else { return 0 }
        return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<granted]))
    }

    func seek(to offset: Int64) throws(MediaError) { try file.seek(to: offset) }

    func close() {
        throttle.close(self)
        file.close()
    }

    var isPacedByClock: Bool { true }

    var isWaitingForClock: Bool { throttle.isBlocked(self) }

    func observeWaitingForClock(_ observer: @escaping @Sendable () -> Void) { throttle.addBlockObserver(observer) }
}

extension PlayerItem {
    /// An item for the file at `url` whose bytes arrive through `throttle`.
    public convenience init(url: String, throttle: MediaThrottle) {
        self.init(url: url) { request throws(MediaError) in try throttle.makeSource(request) }
    }
}
