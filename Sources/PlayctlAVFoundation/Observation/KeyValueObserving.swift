import Locking
import Playback

/// Objects whose key-value observable properties (those AVFoundation and AVKit document as observable) can be
/// observed with `observe(_:options:changeHandler:)`, as `NSObject`'s on Apple platforms. Linux Foundation has no
/// key-value observing, so the objects of this module report their changes themselves, from the engine's events.
///
/// **When handlers run.** `.initial` calls the handler at once, inside `observe`, with the current value. Later
/// calls come when the value changes (an equal value is not reported again), in the order the changes happened:
/// for what the engine changes (a player's status, rate, current item, an item's status, buffering, duration, a
/// layer's `isReadyForDisplay`, Picture in Picture's possible/active/suspended) on the player's (or the Picture in
/// Picture controller's) callback thread, with the value as it was at that change (`newValue` is that value, and
/// reading the observed property inside the handler gives it too); for what the app sets (`volume`, `isMuted`,
/// `videoGravity`, ...) on the thread that set it, before the setter returns. String key paths (`addObserver(_:
/// forKeyPath:options:context:)`) do not exist here: see docs/avfoundation.md.
public protocol PlayctlKeyValueObserving: AnyObject, Sendable {
    /// The object's observations.
    var keyValueObservers: KeyValueObservers { get }
}

/// The observations of one object.
public final class KeyValueObservers: Sendable {
    private struct Entry {
        /// Changes published at or before this sequence number are already in the observation's first value.
        let mark: UInt64
        let check: @Sendable (_ sequence: UInt64?) -> Void
    }

    private let entries = Locked((next: UInt64(0), all: [UInt64: Entry]()))

    init() {}

    func add(mark: UInt64, check: @escaping @Sendable (UInt64?) -> Void) -> UInt64 {
        entries.withLock { entries in
            entries.next += 1
            entries.all[entries.next] = Entry(mark: mark, check: check)
            return entries.next
        }
    }

    func remove(_ id: UInt64) {
        _ = entries.withLock { $0.all.removeValue(forKey: id) }
    }

    /// Whether anything observes the object.
    var isEmpty: Bool { entries.withLock { $0.all.isEmpty } }

    /// Looks at every observation again after a change: the one published as `sequence` (a player event's or a
    /// Picture in Picture event's number; observations made after it skip it), or one the app made (nil). Called
    /// with no lock held; observed values are read as they were at that change (``KeyValueSnapshot``).
    func changed(sequence: UInt64?) {
        let entries = self.entries.withLock { entries in
            entries.all.sorted { $0.key < $1.key }.map(\.value)
        }
        for entry in entries {
            if let sequence, sequence <= entry.mark { continue }
            KeyValueSnapshot.$isReading.withValue(true) { entry.check(sequence) }
        }
    }
}

/// While a change is reported, observed properties read the values of that change (the state the engine's last
/// delivered event left), not the engine's state of now, which may have moved on: observers see each change in
/// order, the same on every run under a manual clock.
enum KeyValueSnapshot {
    @TaskLocal static var isReading = false
}

extension PlayctlKeyValueObserving {
    /// Calls `changeHandler` when the value at `keyPath` changes (and at once with `.initial`) until the returned
    /// observation is invalidated or released. See ``PlayctlKeyValueObserving`` for when and where.
    public func observe<Value: Equatable>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        addObservation(keyPath, options: options, equal: ==, changeHandler: changeHandler)
    }

    /// As `observe(_:options:changeHandler:)` for values that are not `Equatable` (an `Error?`): a change is a
    /// value that prints differently.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        addObservation(
            keyPath, options: options, equal: { String(reflecting: $0) == String(reflecting: $1) },
            changeHandler: changeHandler)
    }

    private func addObservation<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions,
        equal: @escaping (Value, Value) -> Bool,
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let mark = PlayerEvent.makeSequenceNumber()
        let record = ObservationRecord(
            object: self, keyPath: keyPath, options: options, equal: equal, handler: changeHandler,
            initial: self[keyPath: keyPath])
        let observers = keyValueObservers
        let id = observers.add(mark: mark) { _ in record.check() }
        if options.contains(.initial) {
            changeHandler(
                self,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? self[keyPath: keyPath] : nil, oldValue: nil,
                    indexes: nil, isPrior: false))
        }
        return NSKeyValueObservation { [weak observers] in observers?.remove(id) }
    }
}

/// One observation: the last value it reported, and how to report the next.
private final class ObservationRecord<Root: AnyObject, Value>: @unchecked Sendable {
    // Immutable after init, except `last` (behind its lock); the key path and closures are only read.
    private weak var object: Root?
    private let keyPath: KeyPath<Root, Value>
    private let options: NSKeyValueObservingOptions
    private let equal: (Value, Value) -> Bool
    private let handler: @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void
    private let last: Locked<Value>

    init(
        object: Root, keyPath: KeyPath<Root, Value>, options: NSKeyValueObservingOptions,
        equal: @escaping (Value, Value) -> Bool,
        handler: @escaping @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void, initial: Value
    ) {
        self.object = object
        self.keyPath = keyPath
        self.options = options
        self.equal = equal
        self.handler = handler
        self.last = Locked(initial)
    }

    func check() {
        guard let object else { return }
        let value = object[keyPath: keyPath]
        let old = last.withLock { last -> Value? in
            if equal(last, value) { return nil }
            defer { last = value }
            return last
        }
        guard let old else { return }
        let oldValue = options.contains(.old) ? old : nil
        if options.contains(.prior) {
            handler(
                object,
                NSKeyValueObservedChange(kind: .setting, newValue: nil, oldValue: oldValue, indexes: nil, isPrior: true)
            )
        }
        handler(
            object,
            NSKeyValueObservedChange(
                kind: .setting, newValue: options.contains(.new) ? value : nil, oldValue: oldValue, indexes: nil,
                isPrior: false))
    }
}
