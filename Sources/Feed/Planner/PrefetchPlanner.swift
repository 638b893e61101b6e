/// Decides what a feed loads, as a value: which item plays, which items are fetched ahead and how much of each,
/// which one gets a player with its first frame decoded, and what to cancel. Each input returns the actions the
/// driver (``FeedController``) performs; nothing here touches a player or the network, so every rule is tested
/// without media.
///
/// ## Rules (``PrefetchPolicy``)
/// - **The active item first.** It always loads, whatever the budget, and its cost counts against the budget.
/// - **Window.** Only items within `windowAhead` ahead of it in the scroll direction and `windowBehind` behind it
///   are considered; whatever leaves the window is cancelled.
/// - **Ranking.** By distance in the scroll direction first (1, 2, ... ahead), then behind.
/// - **Budget.** Items in flight cost `videoCost` or `imageCost`; the total stays within the profile's budget
///   (`budget`, `cellularBudget`, `constrainedBudget`: 0 means only the active item loads). Items already fetched
///   or failed are not in flight and cost nothing.
/// - **Limits.** An inactive video is fetched only up to `inactiveVideoBytes` (its start); an image whole.
/// - **Prepared next item.** With `preparesNext`, the nearest video ahead gets a player (``Action/prepare(index:)``)
///   that decodes its first frame, so becoming active shows a frame at once; it is a video in flight for the budget.
///   A prepared item that leaves that place gives its player back (``Action/release(index:)``).
/// - **Grids** (``FeedLayout``). Every visible item is active; the window and the prepared items are counted from
///   the edge of what is on screen, and the next row's videos are all prepared. The budget counts what is on
///   screen as one active item (the costliest) and the prepared row as one prepared video.
/// - **Flings.** At a scroll speed above `flingSpeed` nothing but the active item is fetched or prepared.
/// - **Byte caps.** A video whose entry says it is larger than the profile's `autoloadByteCap` is neither fetched
///   ahead nor prepared, and as the active item it waits (``ItemState/capped``, ``Action/capped(index:bytes:cap:)``)
///   until ``play(_:)`` (the user tapped it).
/// - **Size probes.** Under a cap, a remote video whose entry tells no size (``FeedEntry/sizeProbeURL``) is sized
///   before anything of it loads: ``Action/probeSize(index:)`` when it enters what is on screen or (not flinging,
///   with a budget) the window; until ``sized(_:bytes:)`` answers it is neither fetched ahead nor prepared, and on
///   screen it waits (``ItemState/sizing``). Over the cap by its probe, it is capped as an entry that said so; a
///   probe that failed leaves the size unknown, and an unknown size is never capped (as an entry without one).
/// - **Failures** are final for the item (no retry, no cost) and never block the rest.
public struct PrefetchPlanner: Sendable {
    /// Where one item stands.
    public enum ItemState: Sendable, Hashable {
        case idle
        /// Fetched ahead, up to `byteLimit` (nil: whole).
        case prefetching(byteLimit: Int64?)
        /// Its prefetch finished.
        case prefetched
        /// It has a player showing its first frame.
        case prepared
        /// It plays.
        case active
        /// It is the active item but over the autoload cap: nothing loads until ``PrefetchPlanner/play(_:)``.
        case capped
        /// It is on screen, a video whose size is being learned under a cap (``Action/probeSize(index:)``):
        /// nothing loads until ``PrefetchPlanner/sized(_:bytes:)`` says whether it is over the cap.
        case sizing
        case failed
    }

    /// Something the driver does.
    public enum Action: Sendable, Hashable, CustomStringConvertible {
        /// Fetch the item's bytes ahead, up to `byteLimit` (nil: all of them).
        case start(index: Int, byteLimit: Int64?)
        /// Stop fetching the item (what arrived stays cached).
        case cancel(index: Int)
        /// Give the item a player that loads it paused, showing its first frame.
        case prepare(index: Int)
        /// Give the item's prepared player back to the pool.
        case release(index: Int)
        /// Play the item (with its prepared player when it has one).
        case activate(index: Int)
        /// Stop playing the item and give its player back.
        case deactivate(index: Int)
        /// The item became active but is over the autoload cap (`bytes` expected, `cap` for the profile): nothing
        /// of it loads until the user taps it (``PrefetchPlanner/play(_:)``).
        case capped(index: Int, bytes: Int64, cap: Int64)
        /// Learn the video's size (its entry tells none, and a cap applies): answered by
        /// ``PrefetchPlanner/sized(_:bytes:)``.
        case probeSize(index: Int)

        public var description: String {
            switch self {
            case .start(let index, let limit): return "start(\(index)\(limit.map { ", \($0)" } ?? ""))"
            case .cancel(let index): return "cancel(\(index))"
            case .prepare(let index): return "prepare(\(index))"
            case .release(let index): return "release(\(index))"
            case .activate(let index): return "activate(\(index))"
            case .deactivate(let index): return "deactivate(\(index))"
            case .capped(let index, let bytes, let cap): return "capped(\(index), \(bytes) > \(cap))"
            case .probeSize(let index): return "probeSize(\(index))"
            }
        }
    }

    public private(set) var entries: FeedEntries
    public private(set) var policy: PrefetchPolicy
    public private(set) var profile: NetworkProfile
    /// The first item on screen (the only one with ``FeedLayout/single``).
    public private(set) var active: Int?
    /// How many items are on screen at once (``visible``).
    public let layout: FeedLayout
    /// +1 when scrolling forward, -1 backward.
    public private(set) var direction = 1
    /// Items a second.
    public private(set) var speed = 0.0
    private var states: [Int: ItemState] = [:]
    /// After a trim, nothing is prepared until the next scroll.
    private var holdsPreparation = false
    /// Videos the user asked to play (``play(_:)``): no longer capped.
    private var tapped: Set<Int> = []
    /// Where the size probes stand (``sized(_:bytes:)``).
    private enum Probe: Sendable {
        case pending
        case sized(Int64)
        /// It failed: the size stays unknown.
        case failed
    }

    private var probed: [Int: Probe] = [:]

    public init(
        entries: [FeedEntry], policy: PrefetchPolicy = PrefetchPolicy(), profile: NetworkProfile = .unconstrained,
        layout: FeedLayout = .single
    ) {
        self.entries = FeedEntries(entries)
        self.policy = policy
        self.profile = profile
        self.layout = layout
    }

    /// The items on screen: the active one and, in a grid, the ones after it that fill the layout (fewer at the
    /// end of the entries); each is active (or capped).
    public var visible: Range<Int> {
        guard let active else { return 0..<0 }
        return visible(from: active)
    }

    /// The items on screen once item `index` is the active one.
    public func visible(from index: Int) -> Range<Int> {
        index..<max(index + 1, min(index + layout.visibleCount, entries.endIndex))
    }

    /// Whether item `index` is on screen.
    public func isVisible(_ index: Int) -> Bool { active != nil && visible.contains(index) }

    /// Where item `index` stands.
    public func state(of index: Int) -> ItemState { states[index] ?? .idle }

    /// The items in flight (prefetching or prepared) and their total cost, the active item's included.
    public var costInFlight: Int {
        states.reduce(0) { total, entry in
            switch entry.value {
            case .prefetching, .prepared, .active: return total + policy.cost(of: entries[entry.key].kind)
            default: return total
            }
        }
    }

    // MARK: Inputs

    /// The user scrolled to `index` (it becomes the active item), at `speed` items a second; the direction is
    /// where it lies from the previous active item (kept when equal).
    public mutating func scroll(to index: Int, speed: Double = 0) -> [Action] {
        guard entries.indices.contains(index) else { return [] }
        var actions: [Action] = []
        let before = visible
        let after = visible(from: index)
        if let previous = active, previous != index {
            direction = index > previous ? 1 : -1
            for left in before where !after.contains(left) {
                // A failed item stays failed once the user has moved past it (never fetched again).
                let wasCapped = states[left] == .capped || states[left] == .sizing
                if states[left] != .failed { states[left] = .idle }
                if !wasCapped { actions.append(.deactivate(index: left)) }
            }
        }
        self.speed = speed
        holdsPreparation = false
        if active != index {
            let was = active.map { _ in before } ?? 0..<0
            active = index
            for shown in after where !was.contains(shown) && state(of: shown) != .failed {
                if needsSize(shown) {
                    states[shown] = .sizing
                } else if let over = overCap(shown) {
                    states[shown] = .capped
                    actions.append(.capped(index: shown, bytes: over.bytes, cap: over.cap))
                } else {
                    states[shown] = .active
                    actions.append(.activate(index: shown))
                }
            }
        }
        return actions + replan()
    }

    /// The user tapped item `index` (a capped item's poster): it loads and plays as any other from now on, and
    /// is never capped again; the active item starts at once.
    public mutating func play(_ index: Int) -> [Action] {
        guard entries.indices.contains(index) else { return [] }
        tapped.insert(index)
        return replan()
    }

    /// A size probe answered: video `index` is `bytes` long (nil: the probe failed, the size stays unknown and is
    /// never capped). The item on screen waiting for it plays or is capped.
    public mutating func sized(_ index: Int, bytes: Int64?) -> [Action] {
        guard entries.indices.contains(index), probed.keys.contains(index) else { return [] }
        probed[index] = bytes.map { .sized($0) } ?? .failed
        return replan()
    }

    /// Whether video `index` is over the profile's autoload cap (and not tapped): its expected bytes (its entry's,
    /// else its probe's) and the cap.
    public func overCap(_ index: Int) -> (bytes: Int64, cap: Int64)? {
        guard entries.indices.contains(index), entries[index].kind == .video, !tapped.contains(index),
            let cap = policy.autoloadByteCap(for: profile),
            let bytes = entries[index].expectedByteSize ?? probedSize(index), bytes > cap
        else { return nil }
        return (bytes, cap)
    }

    /// Whether video `index` must be sized before it loads: a cap applies, its entry tells no size, a probe can
    /// tell it (``FeedEntry/sizeProbeURL``), none answered yet, and it was not tapped.
    public func needsSize(_ index: Int) -> Bool {
        guard entries.indices.contains(index), !tapped.contains(index), policy.autoloadByteCap(for: profile) != nil,
            entries[index].expectedByteSize == nil, entries[index].sizeProbeURL != nil
        else { return false }
        switch probed[index] {
        case nil, .pending: return true
        case .sized, .failed: return false
        }
    }

    /// What video `index`'s size probe found (nil: none, not yet, or it failed).
    private func probedSize(_ index: Int) -> Int64? {
        if case .sized(let bytes) = probed[index] { return bytes }
        return nil
    }

    /// A page of entries came (an endless feed): they go after the last one, and the plan takes them in as the
    /// window reaches them. Nothing in flight changes index.
    public mutating func append(_ page: [FeedEntry]) -> [Action] {
        guard !page.isEmpty else { return [] }
        entries.append(contentsOf: page)
        return replan()
    }

    /// Forgets the entries before `index` (long scrolled past: none of them is in flight, the caller made sure).
    public mutating func dropEntries(before index: Int) {
        entries.removeFirst(upTo: index)
        states = states.filter { $0.key >= entries.startIndex }
        tapped = tapped.filter { $0 >= entries.startIndex }
        probed = probed.filter { $0.key >= entries.startIndex }
    }

    /// The link changed (cellular, constrained): the budget follows.
    public mutating func networkChanged(_ profile: NetworkProfile) -> [Action] {
        self.profile = profile
        return replan()
    }

    /// The rules changed (a parameter search).
    public mutating func policyChanged(_ policy: PrefetchPolicy) -> [Action] {
        self.policy = policy
        return replan()
    }

    /// Item `index`'s prefetch got what it asked for.
    public mutating func finished(_ index: Int) -> [Action] {
        guard case .prefetching = state(of: index) else { return [] }
        states[index] = .prefetched
        return replan()
    }

    /// Item `index` failed (its prefetch, its preparation or its playback). Final for the item.
    public mutating func failed(_ index: Int) -> [Action] {
        let was = state(of: index)
        guard was != .failed else { return [] }
        states[index] = .failed
        var actions: [Action] = []
        if was == .prepared { actions.append(.release(index: index)) }
        return actions + replan()
    }

    /// Memory ran short: item `index` gives its prepared player back, and nothing is prepared again until the
    /// next scroll.
    public mutating func trimmed(_ index: Int) -> [Action] {
        holdsPreparation = true
        guard state(of: index) == .prepared else { return replan() }
        states[index] = .idle
        return [.release(index: index)] + replan()
    }

    // MARK: Planning

    /// The window around the active item in priority order (the active item excluded): ahead by distance, then
    /// behind.
    public func ranked() -> [Int] {
        guard active != nil else { return [] }
        // From the edges of what is on screen (the active item alone with one visible).
        let front = direction > 0 ? visible.upperBound - 1 : visible.lowerBound
        let back = direction > 0 ? visible.lowerBound : visible.upperBound - 1
        let ahead = (1...max(policy.windowAhead, 1)).map { front + direction * $0 }.prefix(policy.windowAhead)
        let behind = (1...max(policy.windowBehind, 1)).map { back - direction * $0 }.prefix(policy.windowBehind)
        return (Array(ahead) + Array(behind)).filter { entries.indices.contains($0) }
    }

    /// Works out what should be in flight now and returns the differences.
    private mutating func replan() -> [Action] {
        guard let active else { return [] }
        var actions: [Action] = []
        for shown in visible {
            switch state(of: shown) {
            case .active, .failed: continue
            case .capped:
                // Tapped, or the link's cap went up: it plays.
                guard overCap(shown) == nil else { continue }
            case .sizing:
                // Its probe answered (or it was tapped, or the cap went): capped or played.
                if needsSize(shown) { continue }
                if let over = overCap(shown) {
                    states[shown] = .capped
                    actions.append(.capped(index: shown, bytes: over.bytes, cap: over.cap))
                    continue
                }
            default:
                // Came on screen without a scroll (a grid's last row filled by a page).
                if needsSize(shown) {
                    states[shown] = .sizing
                    continue
                }
                if let over = overCap(shown) {
                    states[shown] = .capped
                    actions.append(.capped(index: shown, bytes: over.bytes, cap: over.cap))
                    continue
                }
            }
            states[shown] = .active
            actions.append(.activate(index: shown))
        }
        let budget = policy.budget(for: profile)
        let flinging = speed > policy.flingSpeed
        // Sizes to learn: what is on screen, then (not flinging, with a budget) the window in rank order.
        for index in Array(visible) + (flinging || budget == 0 ? [] : ranked())
        where needsSize(index) && !probed.keys.contains(index) {
            probed[index] = .pending
            actions.append(.probeSize(index: index))
        }
        // A grid's budget counts rows: what is on screen costs what the single layout's active item does (the
        // costliest visible item), the prepared next row what one prepared video does.
        var used = visible.filter { states[$0] == .active }.map { policy.cost(of: entries[$0].kind) }.max() ?? 0
        let window = ranked()
        // The prepared items: the nearest video ahead, the next row's videos in a grid.
        var wantPrepared: Set<Int> = []
        if policy.preparesNext && !flinging && !holdsPreparation {
            let front = direction > 0 ? visible.upperBound - 1 : visible.lowerBound
            for next in (1...layout.columns).map({ front + direction * $0 }) where window.contains(next) {
                guard entries[next].kind == .video, state(of: next) != .failed, overCap(next) == nil, !needsSize(next),
                    !wantPrepared.isEmpty || used + policy.videoCost <= budget
                else { continue }
                if wantPrepared.isEmpty { used += policy.videoCost }
                wantPrepared.insert(next)
            }
        }
        var wanted: [Int: Int64?] = [:]
        if !flinging {
            for index in window where !wantPrepared.contains(index) {
                switch state(of: index) {
                case .prefetched, .failed: continue
                default: break
                }
                guard overCap(index) == nil, !needsSize(index) else { continue }
                let cost = policy.cost(of: entries[index].kind)
                guard used + cost <= budget else { continue }
                used += cost
                wanted[index] = entries[index].kind == .video ? policy.inactiveVideoBytes : nil
            }
        }
        // Let go of what is no longer wanted, farthest first.
        for (index, state) in states.sorted(by: { abs($0.key - active) > abs($1.key - active) }) {
            switch state {
            case .prepared where !wantPrepared.contains(index):
                actions.append(.release(index: index))
                states[index] = .idle
            case .prefetching where wanted[index] == nil && !wantPrepared.contains(index):
                actions.append(.cancel(index: index))
                states[index] = .idle
            default:
                break
            }
        }
        // Then what is wanted, in rank order.
        for index in window {
            if wantPrepared.contains(index), state(of: index) != .prepared {
                if case .prefetching = state(of: index) { actions.append(.cancel(index: index)) }
                states[index] = .prepared
                actions.append(.prepare(index: index))
            } else if let limit = wanted[index], state(of: index) == .idle {
                states[index] = .prefetching(byteLimit: limit)
                actions.append(.start(index: index, byteLimit: limit))
            }
        }
        return actions
    }
}
