import Foundation
import Loading
import MediaCore

extension StreamSession {
    /// What a session knows and has decided, as one value behind its lock: the playlists loaded, which variant each
    /// segment comes from, where the readers and the downloads are, the live playlist's reloads, the audio
    /// rendition's part.
    struct State {
        var playlists: [String: MediaPlaylist] = [:]
        /// The playlist segment indexes and times are read from (the first variant's loaded). A live one keeps only
        /// its retained window (``trimLiveWindow()``): segment index `i` is `reference.segments[i - firstIndex]`.
        var reference: MediaPlaylist
        /// The index of `reference.segments[0]`: how many segments a live play dropped before it (0 otherwise).
        var firstIndex = 0
        var decisions: [Int: String] = [:]
        var abr: ABRMachine
        var current: Variant?
        /// The next segment to download ahead, the primary reader's segment, and the downloads done.
        var downloadIndex = 0
        var readerIndex = 0
        var downloaded: Set<Int> = []
        /// The download under way: its segment and the source it reads (closed to stop it).
        var downloading: (index: Int, source: RemoteByteSource)?
        /// Bumped by every change a sleeping downloader must look at.
        var generation: UInt64 = 0
        var closed = false
        var switches: [VariantSwitch] = []
        var observers: [@Sendable (VariantSwitch) -> Void] = []
        /// The variant of the last segment the primary reader entered, and who is told when it changes.
        var read: VariantRead?
        /// The segments the primary reader entered (their bytes are held, as those of ``downloaded``).
        var entered: Set<Int> = []
        var readObservers: [@Sendable (VariantRead) -> Void] = []
        var bytesDownloaded: Int64 = 0
        /// A live playlist's first segment played (its live edge when loaded); the number of reloads in a row that
        /// brought nothing new.
        var startIndex = 0
        /// Whether the play is of a live playlist (one without an end when loaded).
        var isLive = false
        var staleReloads = 0
        /// Why a reader waiting past the last segment of a live playlist gives up (an origin that stopped).
        var liveFailure: MediaError?
        /// The priority of the session's fetches (its readers' and its downloads').
        var priority = TransferPriority.playback
        /// Why the next switch happens when a limit change or a stall decided it (the machine's next answer is then
        /// `unchanged`).
        var pendingReason: ABRDecision.Reason?
        /// The playhead last reported (``playheadMoved(to:)``) and when.
        var playhead: (seconds: Double, at: ContinuousClock.Instant)?
        /// The audio rendition's segments, its reader and downloads (with ``audioRendition``).
        var audio: AudioState?

        /// Where the play's time 0 is on the reference playlist's timeline: its first segment played (a live
        /// playlist's edge when loaded).
        var origin = 0.0

        /// One past the index of the last segment listed.
        var endIndex: Int { firstIndex + reference.segments.count }

        /// Segment `index` of the reference playlist (its time and duration); nil when not listed (yet), or dropped
        /// from a live play's retained window.
        func timelineSegment(_ index: Int) -> Segment? {
            let position = index - firstIndex
            return position >= 0 && position < reference.segments.count ? reference.segments[position] : nil
        }

        /// Keeps `change` in ``switches`` (the newest ``StreamSession/switchHistoryLimit``).
        mutating func recordSwitch(_ change: VariantSwitch) {
            switches.appendKeepingNewest(change, limit: StreamSession.switchHistoryLimit)
        }
    }
}
