import Loading
import MediaCore

/// A live MPD's clock, read as its `UTCTiming` elements say (``DASHUTCTiming``): the offset of the origin's clock from
/// the machine's, which the session adds to its wall clock for the life of the play (dash.js synchronises at the
/// start; Media3 once per MPD load of a new presentation).
enum DASHClockSync {
    /// The origin's clock minus `localClock`, in seconds, by the first of `timings` that answers: `direct` gives the
    /// time the MPD was made (compared with the clock as it was read), `http-iso`/`http-xsdate` a URL (resolved
    /// against `mpdURL`: a remote MPD may name only http(s), ``ManifestURI``) read past the cache, its body's time
    /// compared with the middle of the request. Nil when no element answers (none, unsupported schemes, a time URL
    /// that fails or does not hold a date): the machine's clock is used, as dash.js falls back to it.
    static func offset(
        _ timings: [DASHUTCTiming], mpdURL: String, loading: RemoteLoading, localClock: () -> Double
    ) -> Double? {
        for timing in timings {
            switch timing.scheme {
            case .direct:
                if let date = HLSMediaPlaylistReader.date(Substring(timing.value.trimmingWhitespace())) {
                    return date - localClock()
                }
            case .httpDate:
                guard let url = try? ManifestURI.resolve(timing.value.trimmingWhitespace(), against: mpdURL) else {
                    continue
                }
                loading.cache.remove(url)
                let sent = localClock()
                guard let bytes = try? ResourceReader.bytes(url, limit: 256, loading: loading),
                    let date = HLSMediaPlaylistReader.date(
                        Substring(String(decoding: bytes, as: UTF8.self).trimmingWhitespace()))
                else { continue }
                return date - (sent + localClock()) / 2
            case .unsupported: continue
            }
        }
        return nil
    }
}
