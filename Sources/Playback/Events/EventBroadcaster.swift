import Locking

/// Delivers one ordered sequence of events to any number of subscribers, each through its own `AsyncStream`.
///
/// Delivery never blocks the producer. Each subscriber has a bounded buffer (`bufferLimit` events); when a
/// subscriber falls that far behind, its **oldest** undelivered events are dropped and counted in
/// ``droppedCount``, so a subscriber that never reads costs bounded memory and never slows playback.
/// A subscriber sees the events yielded after it subscribed, in order.
public final class EventBroadcaster<Element: Sendable>: Sendable {
    private struct Subscriber {
        /// Offers one element to the subscriber's buffer: nil when the subscriber does not want it, else how many
        /// elements wait in the buffer afterwards, and whether the oldest one had to be dropped.
        let offer: @Sendable (Element) -> (buffered: Int, dropped: Bool)?
        let finish: @Sendable () -> Void
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var finished = false
        var dropped = 0
        var peakBuffered = 0
        var observers: [@Sendable (Element) -> Void] = []
    }

    private let state = Locked(State())
    /// Held while one element is handed out, so elements reach every subscriber in the order of `yield` calls.
    /// Never held together with `state` across a hand-off: handing an element to a stream may resume a waiting
    /// task, which takes that task's status lock, and cancelling such a task runs its stream's termination handler
    /// (which takes `state`) under that same status lock. Holding `state` while yielding would deadlock the two.
    /// Its value counts the hand-offs: a `Locked` over an empty value is reported by ThreadSanitizer as racing with
    /// itself (see `Locked`).
    private let delivery = Locked(UInt64(0))
    /// The default per-subscriber buffer.
    public let bufferLimit: Int

    public init(bufferLimit: Int = 4096) {
        self.bufferLimit = max(bufferLimit, 1)
    }

    /// A new stream of the events from now on. It ends when the broadcaster finishes or the stream is dropped.
    public func subscribe(bufferLimit: Int? = nil) -> AsyncStream<Element> {
        subscribe(bufferLimit: bufferLimit) { $0 }
    }

    /// A new stream of the events from now on that `transform` maps to a value (nil: not for this subscriber).
    /// Only the mapped values take room in the subscriber's buffer of `bufferLimit` values (oldest dropped first).
    public func subscribe<Output: Sendable>(
        bufferLimit: Int? = nil,
        _ transform: @escaping @Sendable (Element) -> Output?
    )
        -> AsyncStream<Output>
    {
        let limit = max(bufferLimit ?? self.bufferLimit, 1)
        let (stream, continuation) = AsyncStream.makeStream(of: Output.self, bufferingPolicy: .bufferingNewest(limit))
        let subscriber = Subscriber(
            offer: { element in
                guard let value = transform(element) else { return nil }
                switch continuation.yield(value) {
                case .enqueued(let remaining): return (limit - remaining, false)
                case .dropped: return (limit, true)
                case .terminated: return (0, false)
                @unknown default: return (0, false)
                }
            },
            finish: { continuation.finish() })
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `observer` synchronously for every element, inside `yield`, on the producer's thread (so it must be
    /// quick and must not call back into whatever yields). For exact traces with no consumer task to wait for.
    public func addSynchronousObserver(_ observer: @escaping @Sendable (Element) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Sends `element` to every current subscriber, in the order of calls.
    public func yield(_ element: Element) {
        delivery.withLock { handedOff in
            handedOff &+= 1
            let (observers, subscribers) = state.withLock { ($0.observers, Array($0.subscribers.values)) }
            for observer in observers { observer(element) }
            var dropped = 0
            var peak = 0
            for subscriber in subscribers {
                guard let offered = subscriber.offer(element) else { continue }
                if offered.dropped { dropped += 1 }
                peak = max(peak, offered.buffered)
            }
            state.withLock { state in
                state.dropped += dropped
                state.peakBuffered = max(state.peakBuffered, peak)
            }
        }
    }

    /// Ends every subscriber's stream; later subscribers get an empty stream.
    public func finish() {
        delivery.withLock { _ in
            let subscribers = state.withLock { state -> [Subscriber] in
                state.finished = true
                defer { state.subscribers.removeAll() }
                return Array(state.subscribers.values)
            }
            for subscriber in subscribers { subscriber.finish() }
        }
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { state.withLock { $0.finished } }
    /// Subscribers currently attached.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
    /// Events dropped because a subscriber's buffer was full, over all subscribers.
    public var droppedCount: Int { state.withLock { $0.dropped } }
    /// The most events that ever waited in one subscriber's buffer (never more than that subscriber's limit).
    public var peakBufferedCount: Int { state.withLock { $0.peakBuffered } }
}
