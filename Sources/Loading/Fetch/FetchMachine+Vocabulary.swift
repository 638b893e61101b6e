/// What a ``FetchMachine`` works with: its phases, the facts of a moment, its inputs and its actions.
extension FetchMachine {
    /// Why a fetch holds: it ran far enough ahead of its readers, or playback claims the link.
    struct PauseReasons: OptionSet, Hashable {
        let rawValue: UInt8
        static let readAhead = PauseReasons(rawValue: 1)
        static let link = PauseReasons(rawValue: 2)
    }

    /// Where the fetch is in its life.
    enum Phase: Equatable {
        /// A transfer brings its bytes (or is about to).
        case moving
        /// Holding for these reasons: no transfer, or (a server without ranges) a paused one.
        case paused(PauseReasons)
        /// A dropped transfer is resumed after a delay; the reasons it holds for meanwhile (when the delay ends, it
        /// starts only if there are none).
        case retrying(PauseReasons)
        /// Ended for its readers and whoever awaited it, its last range still coming: cut off, the bytes in flight
        /// (a link's queue on a bloated link) would pass the link for nothing; let to finish, they are kept.
        case draining
        /// Ended (what it brought stays cached).
        case finished
    }

    /// The facts of the moment a decision needs, read by the owner.
    struct Context: Equatable {
        /// What the server said of the resource so far.
        var head: ResourceHead?
        /// Whether some player claims the link.
        var linkClaimed = false
        /// Whether the transport follows a manual clock (a retry then starts at once: there is no real time to wait).
        var pacedByClock = false
        /// The most bytes one transfer asks for (a range): the fetch moves range after range, and a pause or a
        /// cancellation takes effect where a range ends instead of cutting a transfer off.
        var transferBytes: Int64 = FetchMachine.minimumTransferBytes
        /// About how many bytes of a transfer are on their way at a moment (sent by the server, not received yet).
        /// A transfer that is no longer wanted with no more than this left is let to finish (cut off, those bytes
        /// would pass the link for nothing); one with more is cut off.
        var inFlightBytes: Int64 = 0
    }

    /// What happened.
    enum Input: Equatable {
        /// The fetch was made: it starts a transfer, or holds from the start when it gives way to a link claim.
        case begin
        /// The current transfer's response head.
        case head(ResponseHead)
        /// `count` body bytes of the current transfer.
        case bytes(Int)
        /// The current transfer ended (nil: every byte asked for came).
        case ended(MediaError?)
        /// The readers of the resource now (where they read, how far ahead, for what); with `cancelling`, a fetch
        /// begun for readers stops when it serves none (decided only as bytes arrive or a reader leaves, never on
        /// a reader's move: while two readers move in turn the first move may look like no one is left).
        case readers([ReaderInterest], cancelling: Bool)
        /// A reader waits for a byte this fetch will bring: no read-ahead pause, and its priority if higher.
        case readerWaits(TransferPriority)
        /// Everything from the fetch's position to the resource's end is held already (a reader read the tail
        /// first, as a demuxer does for an index at the end).
        case restHeld
        /// The retry delay ended.
        case retryDue
        /// Nobody wants it any more: it ends for its readers; a range under way is let to finish (its bytes are
        /// kept).
        case cancel
        /// A reader wants the bytes of the range a draining fetch still brings: it serves readers again.
        case revive
    }

    /// What the owner does.
    enum Action: Equatable {
        /// Starts a transfer (after its lock is released); the fetch's transfer from now on.
        case startTransfer(TransferRequest)
        /// Ends the current transfer (what it still delivers is dropped).
        case stopTransfer
        /// Pauses or resumes the current transfer (a server without ranges).
        case pauseTransfer(Bool)
        /// Sends ``Input/retryDue`` after `seconds`.
        case scheduleRetry(seconds: Double)
        /// Keeps `count` bytes of the delivery, written at `at`.
        case keep(count: Int, at: Int64)
        /// Records what the server said of the resource.
        case setHead(ResourceHead)
        /// Drops every byte held of the resource (the server has another version).
        case purge
        /// The fetch ended: nil when it brought what it was asked for; `recorded` tells whether the failure stands
        /// for the readers of its range (a cancellation does not).
        case finish(MediaError?, recorded: Bool)
        /// A draining fetch's last range ended: forget it.
        case drained
    }
}

/// A reader of a resource as fetches see it: where it reads, how far ahead it wants bytes fetched, and for which
/// priority.
struct ReaderInterest: Equatable {
    var position: Int64
    var readAhead: Int64
    var priority: TransferPriority
}

/// What the server said of a resource.
struct ResourceHead: Equatable {
    var totalLength: Int64?
    var validator: ResourceValidator
    var acceptsRanges: Bool
    /// What the last response said of reuse (nil: nothing, as from a simulated link: reused while held).
    var caching: CacheDirectives? = nil
    /// The variant of the request that brought the bytes, among the fields the response's `Vary` named
    /// (``CacheDirectives/variant(of:varyingOn:)``); nil when unknown (read from disk) or without `Vary`.
    var variant: String? = nil

    /// Whether the bytes held may serve a request with `headers`: no `Vary`, or the same values of the fields it
    /// names (never with `Vary: *`, nor an unknown variant).
    func serves(_ headers: [String: String]) -> Bool {
        guard let vary = caching?.vary, !vary.isEmpty else { return true }
        guard !vary.contains("*"), let variant else { return false }
        return variant == CacheDirectives.variant(of: headers, varyingOn: vary)
    }

    /// Whether `other` says something else worth recording: another length, version or range support, or other
    /// reuse directives (a new response time alone is not: every range's response has one).
    func differs(from other: ResourceHead) -> Bool {
        guard totalLength == other.totalLength, validator == other.validator, acceptsRanges == other.acceptsRanges,
            variant == other.variant
        else { return true }
        switch (caching, other.caching) {
        case (nil, nil): return false
        case (let mine?, let theirs?): return !mine.sameDirectives(as: theirs)
        default: return true
        }
    }
}
