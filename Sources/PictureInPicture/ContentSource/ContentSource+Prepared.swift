import Playback

/// A player, its layer and a content source wrapping the layer, made ready by
/// ``ContentSource/prepared(for:clock:audio:timeout:)``.
public struct PreparedContentSource: Sendable {
    /// The new player; paused, showing the item's first frame.
    public let player: Player
    /// The layer showing the player's frames; `isReadyForDisplay` is `true`.
    public let layer: PlayerLayer
    /// A content source for `layer`, ready to be assigned to a controller.
    public let contentSource: ContentSource
}

/// Why a content source could not be prepared.
public enum ContentSourcePreparationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The item failed to load; the string is the player item's error.
    case itemFailed(String)
    /// The layer showed no frame in time.
    case notReadyForDisplay

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .itemFailed(let reason): return "the item failed to load: \(reason)"
        case .notReadyForDisplay: return "the new content source showed no frame in time"
        }
    }
}

extension ContentSource {
    /// Makes a player for `item` on `clock` and waits until its layer shows the item's first frame, so that
    /// assigning the returned source to a running Picture in Picture session is seamless (a source that is not
    /// ready for display would stop the session).
    ///
    /// The player stays paused: start it after assigning the source (or use
    /// ``PictureInPictureController/swapContentSource(to:clock:audio:pausingPrevious:)``, which does all of it).
    /// Under a ``ManualClock`` the clock is advanced by zero until the frame is shown (this settles every player
    /// on the clock without moving time); under other clocks the call polls until `timeout`.
    ///
    /// `configure` is called with the new player before it is given the item (to observe its events from the
    /// first, say).
    ///
    /// - Throws: ``ContentSourcePreparationError``; the player is invalidated first.
    public static func prepared(
        for item: PlayerItem, clock: ClockMode, audio: Bool = true, timeout: Duration = .seconds(10),
        configure: (Player) -> Void = { _ in }
    ) async throws(ContentSourcePreparationError) -> PreparedContentSource {
        // Paused on purpose: a player made late on a manual clock only learns the clock's time at its first
        // advance, so it must not run before that.
        let player = Player(clock: clock, audio: audio)
        configure(player)
        player.replaceCurrentItem(with: item)
        let layer = PlayerLayer(player: player)
        let source = ContentSource(playerLayer: layer)
        func outcome() -> ContentSourcePreparationError?? {
            if item.status == .failed { return .some(.itemFailed(item.error?.description ?? "unknown error")) }
            return layer.isReadyForDisplay ? .some(nil) : nil
        }
        var result: ContentSourcePreparationError??
        if case .manual(let manual) = clock {
            for _ in 0..<100 {
                await manual.advance(by: .zero)
                result = outcome()
                if result != nil { break }
            }
        } else {
            let deadline = ContinuousClock.now + timeout
            while result == nil, ContinuousClock.now < deadline {
                result = outcome()
                if result == nil { try? await Task.sleep(for: .milliseconds(2)) }
            }
        }
        switch result {
        case .some(nil):
            return PreparedContentSource(player: player, layer: layer, contentSource: source)
        case .some(.some(let error)):
            player.invalidate()
            throw error
        case nil:
            player.invalidate()
            throw .notReadyForDisplay
        }
    }
}
