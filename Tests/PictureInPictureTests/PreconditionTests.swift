import PictureInPicture
import Testing

@Suite("Preconditions")
struct PreconditionTests {
    /// `possible` with exactly one requirement broken, and the error it must produce.
    static let singleFailures: [(String, PictureInPicturePreconditions, PictureInPictureError)] = {
        var cases: [(String, PictureInPicturePreconditions, PictureInPictureError)] = []
        var p = possible
        p.isSupportedByHost = false
        cases.append(("host", p, .notSupported))
        for category in AudioSession.Category.allCases where category != .playback {
            p = possible
            p.audioSession.category = category
            cases.append(("category \(category)", p, .audioSessionCategoryNotPlayback(current: category)))
        }
        p = possible
        p.audioSession.isActive = false
        cases.append(("inactive", p, .audioSessionInactive))
        p = possible
        p.hasBackgroundAudioCapability = false
        cases.append(("capability", p, .backgroundAudioCapabilityMissing))
        p = possible
        p.isContentSourceReadyForDisplay = false
        cases.append(("content", p, .contentSourceNotReadyForDisplay))
        return cases
    }()

    @Test("each unmet precondition names itself", arguments: singleFailures)
    func singleFailure(name: String, preconditions: PictureInPicturePreconditions, error: PictureInPictureError) {
        #expect(preconditions.check() == error, "\(name)")
        #expect(!preconditions.isPossible)
    }

    @Test("all satisfied is possible")
    func allSatisfied() {
        #expect(possible.check() == nil)
        #expect(possible.isPossible)
        #expect(PictureInPicturePreconditions().check() == .notSupported, "defaults are unsatisfied")
    }

    @Test("failures are reported in the documented order")
    func order() {
        var p = PictureInPicturePreconditions(audioSession: AudioSession(category: .ambient, isActive: false))
        var seen: [PictureInPictureError] = []
        while let error = p.check() {
            seen.append(error)
            switch error {
            case .notSupported: p.isSupportedByHost = true
            case .audioSessionCategoryNotPlayback: p.audioSession.category = .playback
            case .audioSessionInactive: p.audioSession.isActive = true
            case .backgroundAudioCapabilityMissing: p.hasBackgroundAudioCapability = true
            case .contentSourceNotReadyForDisplay: p.isContentSourceReadyForDisplay = true
            default:
                Issue.record("check() returned a non-precondition error \(error)")
                return
            }
        }
        #expect(
            seen == [
                .notSupported, .audioSessionCategoryNotPlayback(current: .ambient), .audioSessionInactive,
                .backgroundAudioCapabilityMissing, .contentSourceNotReadyForDisplay,
            ])
    }

    @Test("a start blocked by a precondition reports failedToStart without willStart", arguments: singleFailures)
    func blockedStart(name: String, preconditions: PictureInPicturePreconditions, error: PictureInPictureError) throws {
        var m = Machine(profile: .iOS, preconditions: preconditions)
        #expect(try m.startRequested(preconditions: preconditions) == [failed(error)], "\(name)")
        #expect(m.phase == .idle && m.currentSession == nil)
        // No session identifier was consumed by the refusal.
        #expect(
            try m.startRequested(preconditions: possible)
                == [possibleChanged(true), willStart, .openWindow(SessionID(rawValue: 1))])
    }

    @Test("a start reports the possible flip before the refusal")
    func blockedStartAfterFlip() throws {
        var m = Machine(profile: .macOS, preconditions: possible)
        #expect(
            try m.startRequested(preconditions: inactiveAudio)
                == [possibleChanged(false), failed(.audioSessionInactive)])
        #expect(!m.isPossible)
    }

    @Test("possibleChanged is emitted on flips only")
    func possibleFlips() {
        var m = Machine(profile: .iOS)
        #expect(!m.isPossible)
        #expect(m.preconditionsChanged(inactiveAudio) == [])
        #expect(m.preconditionsChanged(possible) == [possibleChanged(true)])
        #expect(m.preconditionsChanged(possible) == [])
        #expect(m.contentSourceReplaced(isReadyForDisplay: false) == [contentChanged, possibleChanged(false)])
        #expect(m.contentSourceReplaced(isReadyForDisplay: true) == [contentChanged, possibleChanged(true)])
        #expect(m.isPossible && m.preconditions == possible)
    }

    @Test("an impossible automatic start does nothing and reports nothing")
    func impossibleAutoStart() {
        var m = Machine(profile: .iOS, preconditions: inactiveAudio)
        #expect(m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: inactiveAudio) == [])
        #expect(
            m.enteredBackground(isPlaying: true, canStartAutomatically: false, preconditions: possible)
                == [possibleChanged(true)])
        #expect(m.phase == .idle)
    }

    @Test("every error has its own description")
    func descriptions() {
        let errors: [PictureInPictureError] =
            [
                .notSupported, .audioSessionInactive, .backgroundAudioCapabilityMissing,
                .contentSourceNotReadyForDisplay, .alreadyActive, .startInProgress, .suspended,
                .controllerReleased, .startCancelled, .systemFailed("boom"),
            ] + AudioSession.Category.allCases.map { .audioSessionCategoryNotPlayback(current: $0) }
        let descriptions = errors.map(\.description)
        #expect(Set(descriptions).count == errors.count)
        #expect(descriptions.allSatisfy { !$0.isEmpty })
        #expect(PictureInPictureError.systemFailed("boom").description.contains("boom"))
        #expect(PictureInPictureError.audioSessionCategoryNotPlayback(current: .record).description.contains("record"))
    }
}
