/// A value a player publishes, stamped with its place in the player's sequence of publications.
///
/// A player decides what to publish under its lock and delivers it later, on its callback executor. A subscriber
/// registered under that lock records the sequence number reached then, and takes only what comes after: it sees
/// exactly what was published after it subscribed, however late the executor delivers what came before.
struct Sequenced<Value: Sendable>: Sendable {
    /// 1 for the first publication; `UInt64.max` for what every subscriber takes (a hang report).
    let sequence: UInt64
    let value: Value
}

extension EventBroadcaster {
    /// A stream of the values published after sequence number `start`, mapped by `transform`.
    func subscribe<Value: Sendable, Output: Sendable>(
        after start: UInt64, bufferLimit: Int?, _ transform: @escaping @Sendable (Value) -> Output?
    ) -> AsyncStream<Output> where Element == Sequenced<Value> {
        subscribe(bufferLimit: bufferLimit) { $0.sequence > start ? transform($0.value) : nil }
    }

    /// Calls `observer` with the values published after sequence number `start`.
    func addSynchronousObserver<Value: Sendable>(after start: UInt64, _ observer: @escaping @Sendable (Value) -> Void)
    where Element == Sequenced<Value> {
        addSynchronousObserver { if $0.sequence > start { observer($0.value) } }
    }
}
