import Foundation
import Loading
import Locking
import Playback

/// A network link that follows a `ManualClock`: a ``Transport`` serving local files as if over HTTP (byte ranges,
/// an ETag, 404 for a file it does not have), at a rate in bytes per second of clock time shared by every transfer,
/// with a latency before each response, and an optional drop of every connection after some bytes. Bytes move
/// only when the clock advances: the bytes of each advance's interval arrive at its end, after every player caught
/// up to it (so every transfer its readers asked for by then is counted, however fast their threads ran), and the
/// players take them at the next advance. A scenario over it gives the same trace on every run.
///
/// Give it to items with `PlayerItem(url:loading:)`, as `RemoteLoading(cache:transport:)`: their readers wait for
/// it as for the clock (`ClockPacedByteSource`).
public final class SimulatedNetwork: Transport, ManualClockParticipant, @unchecked Sendable {
    /// After every player (their order is their creation order), before a simulated Picture in Picture system.
    public let clockOrder: UInt64 = .max - 1
    public var isPacedByClock: Bool { true }
    private let clock: ManualClock
    private let files: @Sendable (String) -> String?

    private struct State {
        var bytesPerSecond: Double
        var latency: Double
        var dropAfter: Int64?
        var servesRanges: Bool
        var lastAdvance: Double
        var transfers: [SimulatedTransfer] = []
        var bytesDelivered: Int64 = 0
    }

    private let state: Locked<State>

    /// A link of `bytesPerSecond` of clock time with `latency` seconds before each response's first byte,
    /// serving the local file `files(url)` for each URL (nil: 404). With `dropAfter`, each connection breaks after
    /// delivering that many bytes (the loader resumes where it stopped). With `servesRanges` false it answers
    /// every request with the whole file, as a server without byte ranges.
    public init(
        clock: ManualClock, bytesPerSecond: Int, latency: Double = 0.05, dropAfter: Int64? = nil,
        servesRanges: Bool = true, files: @escaping @Sendable (String) -> String?
    ) {
        self.clock = clock
        self.files = files
        state = Locked(
            State(
                bytesPerSecond: Double(bytesPerSecond), latency: latency, dropAfter: dropAfter,
                servesRanges: servesRanges, lastAdvance: clock.now.seconds))
        clock.register(self)
    }

    /// Serves the files of `directory` by their names (the last path component of each URL).
    public convenience init(
        clock: ManualClock, bytesPerSecond: Int, latency: Double = 0.05, dropAfter: Int64? = nil,
        servesRanges: Bool = true, directory: String
    ) {
        self.init(
            clock: clock, bytesPerSecond: bytesPerSecond, latency: latency, dropAfter: dropAfter,
            servesRanges: servesRanges
        ) { url in
            let name = PlayerItemName.of(url)
            let path = directory + "/" + name
            return FileManager.default.fileExists(atPath: path) ? path : nil
        }
    }

    /// Changes the link's rate from now on.
    public func setRate(_ bytesPerSecond: Int) { state.withLock { $0.bytesPerSecond = Double(bytesPerSecond) } }

    /// Bytes delivered so far, over every transfer.
    public var bytesDelivered: Int64 { state.withLock { $0.bytesDelivered } }

    /// Transfers running (not finished, cancelled or failed).
    public var activeTransfers: Int { state.withLock { $0.transfers.count } }

    /// The time of the last round of deliveries: between rounds the link's time stands still, so a transfer asked
    /// for anywhere between two rounds starts at the same time whatever the readers' threads did.
    public func currentTime() -> Double { state.withLock { $0.lastAdvance } }

    public func start(_ request: TransferRequest, sink: any TransferSink) -> any TransferHandle {
        let transfer = SimulatedTransfer(
            request: request, sink: sink, path: files(request.url),
            startedAt: currentTime(), network: self)
        state.withLock { $0.transfers.append(transfer) }
        return transfer
    }

    func remove(_ transfer: SimulatedTransfer) {
        state.withLock { $0.transfers.removeAll { $0 === transfer } }
    }

    /// Moves the bytes of the clock time since the last advance (at its end): the link's budget is split evenly among the
    /// transfers past their latency and not paused, in the order they started (what one cannot take goes to the
    /// next), and each transfer's bytes go to its sink now.
    public func clockDidAdvance(to time: MediaTime) async {
        let now = time.seconds
        let (ready, budget, latency, dropAfter, ranges) = state.withLock { s in
            let elapsed = max(now - s.lastAdvance, 0)
            s.lastAdvance = now
            return (s.transfers, elapsed * s.bytesPerSecond, s.latency, s.dropAfter, s.servesRanges)
        }
        // The readers see this instant's bytes all at once (their threads wake when every transfer got its share).
        for transfer in ready { transfer.deliveryBegan() }
        defer { for transfer in ready { transfer.deliveryEnded() } }
        var left = budget
        var waiting = ready.filter { !$0.isPaused && now - $0.startedAt >= latency }
        for transfer in ready where now - transfer.startedAt >= latency { transfer.respond(servesRanges: ranges) }
        waiting.removeAll { $0.isFinished }
        while left >= 1, !waiting.isEmpty {
            let share = left / Double(waiting.count)
            var next: [SimulatedTransfer] = []
            for transfer in waiting {
                let given = transfer.deliver(upTo: Int64(share), dropAfter: dropAfter)
                left -= Double(given)
                state.withLock { $0.bytesDelivered += given }
                if !transfer.isFinished && given >= Int64(share) { next.append(transfer) }
            }
            if next.count == waiting.count && share < 1 { break }
            waiting = next
        }
        for transfer in ready where transfer.isFinished { remove(transfer) }
    }
}

/// An item's name as `PlayerItem` gives it: a URL's last path component, without query or fragment.
enum PlayerItemName {
    static func of(_ url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init) ?? url
    }
}
