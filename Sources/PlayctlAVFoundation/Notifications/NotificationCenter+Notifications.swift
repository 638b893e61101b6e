import Locking

/// `NotificationCenter.default.notifications(named:object:)`, which Linux Foundation lacks: the notifications posted
/// from now on, as an asynchronous sequence, for `for await` loops.
extension NotificationCenter {
    /// The notifications named `name` (from `object` only, when given) posted from now on, in the order they were
    /// posted. The observation ends when the loop ends or its task is cancelled. Notifications wait in an unbounded
    /// buffer until the loop takes them.
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
        Notifications(center: self, name: name, object: object)
    }

    /// An asynchronous sequence of notifications (see ``notifications(named:object:)``).
    public struct Notifications: AsyncSequence, @unchecked Sendable {
        public typealias Element = Notification
        // Only read: the center and the object are used to add the observer.
        private let center: NotificationCenter
        private let name: Notification.Name
        private weak var object: AnyObject?
        private let hasObject: Bool

        init(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
            self.center = center
            self.name = name
            self.object = object
            self.hasObject = object != nil
        }

        public func makeAsyncIterator() -> AsyncIterator {
            let (stream, continuation) = AsyncStream.makeStream(of: Box.self)
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                continuation.yield(Box(notification: notification))
            }
            let registration = Registration(center: center, token: token)
            continuation.onTermination = { [weak registration] _ in registration?.remove() }
            if hasObject && object == nil { continuation.finish() }
            return AsyncIterator(base: stream.makeAsyncIterator(), registration: registration)
        }

        /// Takes the notifications one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Box>.Iterator
            let registration: Registration

            public mutating func next() async -> Notification? {
                await base.next()?.notification
            }
        }

        /// A notification crossing from the posting thread to the loop (Linux's `Notification` is not `Sendable`;
        /// the loop is its only reader).
        struct Box: @unchecked Sendable {
            let notification: Notification
        }

        /// Removes the observer once.
        final class Registration: @unchecked Sendable {
            private let center: NotificationCenter
            private let token: Locked<(any NSObjectProtocol)?>

            init(center: NotificationCenter, token: any NSObjectProtocol) {
                self.center = center
                self.token = Locked(token)
            }

            func remove() {
                let token = self.token.withLock { token -> (any NSObjectProtocol)? in
                    defer { token = nil }
                    return token
                }
                if let token { center.removeObserver(token) }
            }

            deinit { remove() }
        }
    }
}
