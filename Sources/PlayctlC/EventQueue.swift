import CPlayctl
import Foundation

/// One C event before it is handed out: the `playctl_event` fields with Swift strings.
struct QueuedEvent: Sendable {
    var type: playctl_event_type
    var error: Int32 = 0
    var requestID: UInt64 = 0
    var time: Double = 0
    var clockTime: Double = 0
    var itemStatus: Int32 = 0
    var timeControlStatus: Int32 = 0
    var waitingReason: Int32 = 0
    var finished: Int32 = 0
    var landed: Double = .nan
    var duration: Double = 0
    var rate: Double = 0
    var value: Int64 = 0
    var item: String?
    var message: String?
    /// The `playctl_pip` handle of a PiP event (its address: the handle outlives its events' delivery).
    var pip: UInt = 0
    /// Since 0.2: the event's name and JSON object in playctl's `--json` vocabulary (metric and feed events).
    var name: String?
    var json: String?
    var index: Int64 = 0
    var latency: Double = 0
    var width: Int32 = 0
    var height: Int32 = 0

    init(_ type: playctl_event_type) { self.type = type }
}

/// A player's C event queue: bounded in events and in bytes (the oldest dropped and counted when the app does not
/// drain it), one waiter
/// at a time (``wait(timeout:)``), woken by events and by ``wakeUp()``. The event handed out lives in memory of
/// the queue's own, with its strings, until the next `wait`.
final class EventQueue: @unchecked Sendable {
    /// Guards everything below.
    private let condition = NSCondition()
    private var events: [QueuedEvent] = []
    private var head = 0
    /// What the events from `head` on hold (``cost(of:)``).
    private var queuedBytes = 0
    private var dropped = 0
    private var wakeups = 0
    private var closed = false
    /// The event handed out and its strings (owned here, freed at the next `wait` or at `deinit`).
    private let current = UnsafeMutablePointer<playctl_event>.allocate(capacity: 1)
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Events kept at most, and bytes (``cost(of:)``): past either the oldest are dropped and a
    /// `PLAYCTL_EVENT_QUEUE_OVERFLOW` says how many. 1000 events of short names fit in the bytes; events naming
    /// items by long paths or URLs reach the byte bound first.
    static let limit = 1000
    static let byteLimit = 256 << 10

    /// The bytes an event holds while queued: its fields and its strings.
    static func cost(of event: QueuedEvent) -> Int {
        MemoryLayout<QueuedEvent>.stride + (event.item?.utf8.count ?? 0) + (event.message?.utf8.count ?? 0)
            + (event.name?.utf8.count ?? 0) + (event.json?.utf8.count ?? 0)
    }

    init() { current.initialize(to: playctl_event()) }

    deinit {
        for string in strings { free(string) }
        current.deinitialize(count: 1)
        current.deallocate()
    }

    /// Queues `event`; returns false when the queue is closed.
    @discardableResult
    func push(_ event: QueuedEvent) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        events.append(event)
        queuedBytes += Self.cost(of: event)
        while events.count - head > Self.limit || (queuedBytes > Self.byteLimit && events.count - head > 1) {
            queuedBytes -= Self.cost(of: events[head])
            head += 1
            dropped += 1
        }
        if head > 256 {
            events.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return true
    }

    /// Makes the current or next `wait` return a NONE event.
    func wakeUp() {
        condition.lock()
        wakeups += 1
        condition.broadcast()
        condition.unlock()
    }

    /// No more events are queued; a waiter returns.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next event, waiting up to `timeout` seconds (forever when negative): written into the queue's event,
    /// valid until the next call.
    func wait(timeout: Double) -> UnsafePointer<playctl_event> {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeout >= 0 ? Date(timeIntervalSinceNow: min(timeout, 1e9)) : nil
        while events.count == head && dropped == 0 && wakeups == 0 && !closed {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        for string in strings { free(string) }
        strings.removeAll()
        var next = QueuedEvent(PLAYCTL_EVENT_NONE)
        if dropped > 0 {
            next = QueuedEvent(PLAYCTL_EVENT_QUEUE_OVERFLOW)
            next.value = Int64(dropped)
            dropped = 0
        } else if events.count > head {
            next = events[head]
            queuedBytes -= Self.cost(of: next)
            head += 1
        } else if wakeups > 0 {
            wakeups = 0
        }
        current.pointee = fill(next)
        return UnsafePointer(current)
    }

    private func fill(_ event: QueuedEvent) -> playctl_event {
        var out = playctl_event()
        out.type = Int32(event.type.rawValue)
        out.error = event.error
        out.request_id = event.requestID
        out.time = event.time
        out.clock_time = event.clockTime
        out.item_status = event.itemStatus
        out.time_control_status = event.timeControlStatus
        out.waiting_reason = event.waitingReason
        out.finished = event.finished
        out.landed = event.landed
        out.duration = event.duration
        out.rate = event.rate
        out.value = event.value
        out.item = own(event.item)
        out.message = own(event.message)
        out.pip = OpaquePointer(bitPattern: event.pip)
        out.name = own(event.name)
        out.json = own(event.json)
        out.index = event.index
        out.latency = event.latency
        out.width = event.width
        out.height = event.height
        return out
    }

    /// A C copy of `string`, freed at the next `wait`.
    private func own(_ string: String?) -> UnsafePointer<CChar>? {
        guard let string, let copy = strdup(string) else { return nil }
        strings.append(copy)
        return UnsafePointer(copy)
    }
}
