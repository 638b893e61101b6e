import Foundation
import Loading
import Locking
import PlaybackTesting
import Testing

@testable import Streaming

/// The stream session's fast switching (``ABRMachine/switchUpReplacingBuffer(duration:)``) on the long ladder served by
/// nginx, the session driven without its download thread: a buffer of 360p ahead of the reader, then a switch up.
@Suite(
    "Stream session: a switch up replaces the buffer", .enabled(if: LadderMedia.skipReason == nil, "needs the ladder"))
struct FastSwitchSessionTests {
    @Test("30 s of 360p ahead, the cap lifted: 1080p from the segment past 3.5 segments after the reader's")
    func replacesBuffer() throws {
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20), transport: HTTPLoader())
        let session = try StreamSession.open(
            url: LadderMedia.url("long-ts/master.m3u8"), loading: loading,
            limits: ABRLimits(preferredPeakBitRate: 1_100_000), forwardSeconds: 30,
            bandwidthEstimate: SharedBandwidthEstimate(), preferredAudioLanguage: nil, liveOffset: nil,
            startsThreads: false)
        defer { session.close() }
        let changes = Locked<[VariantSwitch]>([])
        session.observeSwitches { change in changes.withLock { $0.append(change) } }
        // Segment 0 (the reader's) and 30 s after it, all 360p under the cap (a 540p peak is 1.85 Mbit/s).
        for _ in 0..<16 { #expect(session.downloadNext()) }
        let lowest = try #require(session.presentation.variants.min { $0.bandwidth < $1.bandwidth })
        let highest = try #require(session.presentation.variants.max { $0.bandwidth < $1.bandwidth })
        let filled = session.withState { s in (s.downloaded, s.decisions) }
        #expect(filled.0 == Set(0..<16))
        #expect(filled.1.values.allSatisfy { $0 == lowest.id })
        #expect(changes.withLock { $0.isEmpty })

        session.setLimits(ABRLimits())
        #expect(session.downloadNext())
        // The loopback link carries 1080p many times over: kept are segments 1 to 4 (8 s, the first whole segments
        // covering 3.5 x 2 s), replaced are 5 to 15, and segment 5 was downloaded again at 1080p.
        let switches = changes.withLock { $0 }
        #expect(switches.count == 1)
        let up = try #require(switches.first)
        #expect(up.from?.id == lowest.id && up.to.id == highest.id && up.segmentIndex == 5)
        #expect(up.reason == ABRDecision.Reason.bandwidthUp.rawValue)
        let after = session.withState { s in (s.downloaded, s.decisions) }
        #expect(after.0 == Set(0...5))
        #expect((0...4).allSatisfy { after.1[$0] == lowest.id })
        #expect(after.1[5] == highest.id)
        #expect((6...15).allSatisfy { after.1[$0] == nil }, "decided again when downloaded")
        // The next downloads keep the new variant with the kept buffer only.
        for _ in 0..<3 { #expect(session.downloadNext()) }
        let next = session.withState { $0.decisions }
        #expect((6...8).allSatisfy { next[$0] == highest.id })
        #expect(changes.withLock { $0.count } == 1)
    }
}
