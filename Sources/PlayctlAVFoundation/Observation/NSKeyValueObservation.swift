import Locking

/// What an observation reports, as Foundation's `NSKeyValueObservingOptions` (Linux Foundation has no key-value
/// observing).
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Changes carry the new value.
    public static let new = NSKeyValueObservingOptions(rawValue: 1 << 0)
    /// Changes carry the old value.
    public static let old = NSKeyValueObservingOptions(rawValue: 1 << 1)
    /// The handler is called once at once, inside `observe`, with the current value.
    public static let initial = NSKeyValueObservingOptions(rawValue: 1 << 2)
    /// The handler is also called just before each change (`isPrior` true, with the old value).
    public static let prior = NSKeyValueObservingOptions(rawValue: 1 << 3)
}

/// The kind of change, as Foundation's `NSKeyValueChange`: here always `.setting`.
public enum NSKeyValueChange: UInt, Sendable, Hashable {
    case setting = 1
    case insertion = 2
    case removal = 3
    case replacement = 4
}

/// One change an observation reports, as Foundation's `NSKeyValueObservedChange`.
public struct NSKeyValueObservedChange<Value> {
    /// The kind of change.
    public typealias Kind = NSKeyValueChange
    /// Always `.setting`.
    public let kind: Kind
    /// The new value, when the observation asked for `.new` (and for the `.initial` call).
    public let newValue: Value?
    /// The old value, when the observation asked for `.old`.
    public let oldValue: Value?
    /// Always nil (no to-many properties are observed).
    public let indexes: IndexSet?
    /// True for the call made before a change, with `.prior`.
    public let isPrior: Bool
}

extension NSKeyValueObservedChange: @unchecked Sendable where Value: Sendable {}

/// An observation made with `observe(_:options:changeHandler:)`, as Foundation's `NSKeyValueObservation`: it lasts
/// until ``invalidate()`` is called or it is released.
public final class NSKeyValueObservation: Sendable {
    private let removal: Locked<(@Sendable () -> Void)?>

    init(removal: @escaping @Sendable () -> Void) {
        self.removal = Locked(removal)
    }

    deinit { invalidate() }

    /// Ends the observation: its handler is not called for changes after this returns (a call already under way
    /// on another thread may finish).
    public func invalidate() {
        let remove = removal.withLock { removal -> (@Sendable () -> Void)? in
            defer { removal = nil }
            return removal
        }
        remove?()
    }
}
