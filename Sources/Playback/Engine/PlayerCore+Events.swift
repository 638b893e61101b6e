/// Events and callbacks: decided under the lock, delivered on the callback executor in the same order.
extension PlayerCore {
    /// Emits an event about `item` (the current item when nil), with the metrics it gives rise to: derived now,
    /// from the state as it is, and delivered on the executor, the metrics first, then the event.
    func emit(_ kind: PlayerEvent.Kind, item: PlayerItem? = nil, at now: Double? = nil) {
        let time = now ?? clockNow()
        let subject = item ?? currentItem
        let itemTime = subject === currentItem || subject == nil ? reportedTime(at: time) : .zero
        let event = PlayerEvent(
            kind: kind, hostTime: time, itemTime: itemTime, item: subject?.name,
            sequenceNumber: PlayerEvent.makeSequenceNumber(), itemSerialNumber: subject?.serial)
        let sequence = nextPublication()
        let publish = metrics.derive(event, sequence: sequence, facts: self)
        let events = self.events
        executor.enqueue {
            publish()
            events.yield(Sequenced(sequence: sequence, value: event))
        }
    }

    /// The sequence number of a new publication.
    func nextPublication() -> UInt64 {
        state.published += 1
        return state.published
    }

    /// Runs `body` with the sequence number of the last publication, under the lock: what `body` subscribes then
    /// gets exactly what is published afterwards.
    func subscribing<T>(_ body: (UInt64) -> T) -> T {
        read { body($0.state.published) }
    }

    /// Hands app code to the executor, timed by the hang watchdog under `label`.
    func callback(_ label: String, _ work: @escaping @Sendable () -> Void) {
        let watchdog = metrics.watchdog
        executor.enqueue { watchdog.measure(label, work) }
    }
}
