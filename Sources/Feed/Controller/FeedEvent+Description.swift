extension FeedEvent: CustomStringConvertible {
    /// One line: the time (ms precision), the name, the item and what happened.
    public var description: String {
        let time = (time * 1000).rounded() / 1000
        return "\(time) \(name) #\(index) \(details)"
    }

    /// What happened, without the time, name and item.
    public var details: String {
        switch kind {
        case .visible, .audible: return ""
        case .active(_, let prepared, let hasFrame): return "prepared=\(prepared) hasFrame=\(hasFrame)"
        case .prefetch(_, let limit, let bytes, let outcome):
            return "\(outcome) bytes=\(bytes)" + (limit.map { " limit=\($0)" } ?? "")
        case .prepared(_, let player, let ready): return "player=\(player) ready=\(ready)"
        case .firstFrame(_, let latency, let prepared), .started(_, let latency, let prepared):
            return "latency=\((latency * 1000).rounded() / 1000) prepared=\(prepared)"
        case .stall(_, let ended, let duration):
            return ended ? "ended after \((duration * 1000).rounded() / 1000)" : "began"
        case .failed(_, let error): return error
        case .poolAcquire(let player, _, let waited): return "player=\(player)" + (waited ? " waited" : "")
        case .poolRelease(let player, _): return "player=\(player)"
        case .trimmed(_, let bytes): return "bytes=\(bytes)"
        case .poster(_, let latency, let fromCache):
            return "latency=\((latency * 1000).rounded() / 1000)" + (fromCache ? " cached" : "")
        case .picture(_, let shows): return "shows=\(shows.rawValue)"
        case .capped(_, let bytes, let cap): return "bytes=\(bytes) cap=\(cap)"
        case .sized(_, let bytes, let fromCache): return "bytes=\(bytes)" + (fromCache ? " cached" : "")
        case .sizeProbeFailed(_, let error): return error
        case .rendition(_, let choice):
            return "\(choice.rendition.url) bitrate=\(choice.rendition.bitrate) \(choice.reason.rawValue)"
                + " estimate=\(Int(choice.estimate.rounded())) (\(choice.estimateSource.rawValue))"
        case .pageRequested, .pagesEnded: return ""
        case .page(_, let count): return "count=\(count)"
        case .pageFailed(_, let error): return error
        }
    }
}
