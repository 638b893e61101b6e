import Playback

/// Performing the queued work: machine actions go to the host, events go to the callback executor.
extension ControllerCore {
    func perform(_ work: Work) {
        switch work {
        case .action(let action, let session):
            perform(action, session: session)
        case .publish(let event):
            deliver(event)
        case .contentSourceChanged:
            host.contentSourceDidChange(for: connection)
        case .finishIfReleased:
            finishIfReleased()
        }
    }

    private func perform(_ action: PictureInPictureAction, session: SessionID?) {
        switch action {
        case .emit(let event):
            deliver(event, session: session)
        case .openWindow(let s):
            host.openWindow(s, for: connection)
        case .closeWindow(let s, let reason):
            host.closeWindow(s, reason: reason, for: connection)
        case .hideWindow(let s):
            host.hideWindow(s, for: connection)
        case .showWindow(let s):
            host.showWindow(s, for: connection)
        case .awaitRestoreCompletion(let s, let timeout):
            // A timer that fires after the completion is ignored by the machine: it never needs cancelling.
            host.schedule(after: timeout) { [self] in feed { $0.machine.restoreTimedOut(session: s) } }
        case .restoreFailed(_, let failure):
            state.withLock { $0.lastRestoreFailure = failure }
        case .seek(let request):
            performSkip(request)
        }
    }

    /// Maps a machine event to the controller's event and delegate call.
    private func deliver(_ event: PictureInPictureEvent, session: SessionID?) {
        switch event {
        case .willStart:
            call(.willStart, delegate: { $0.pictureInPictureControllerWillStartPictureInPicture($1) })
        case .didStart:
            call(.didStart, delegate: { $0.pictureInPictureControllerDidStartPictureInPicture($1) })
        case .failedToStart(let error):
            call(
                .failedToStart(error),
                delegate: { $0.pictureInPictureController($1, failedToStartPictureInPictureWithError: error) })
            submit(.finishIfReleased)
        case .restoreUserInterface:
            let completion: @Sendable (Bool) -> Void = { [self] restored in
                guard let session else { return }
                feed { $0.machine.restoreCompleted(restored, session: session) }
            }
            call(
                .restoreUserInterface,
                delegate: {
                    $0.pictureInPictureController(
                        $1, restoreUserInterfaceForPictureInPictureStopWithCompletionHandler: completion)
                }, otherwise: { completion(true) })
        case .willStop:
            call(.willStop, delegate: { $0.pictureInPictureControllerWillStopPictureInPicture($1) })
        case .didStop:
            call(.didStop, delegate: { $0.pictureInPictureControllerDidStopPictureInPicture($1) })
            submit(.finishIfReleased)
        case .possibleChanged(let possible):
            call(.possible(possible))
        case .suspendedChanged(let suspended):
            call(.suspended(suspended))
        case .contentSourceChanged:
            let source = state.withLock { $0.source }
            call(.contentSource(item: source.player?.currentItem?.name, mode: .source))
        }
    }

    /// An event from the host: stream only.
    private func deliver(_ event: PictureInPictureControllerEvent) {
        call(event)
    }

    /// On the callback executor: yields `event` on the stream, then calls the delegate with its controller, or
    /// `otherwise` when there is no delegate or the controller is gone.
    private func call(
        _ event: PictureInPictureControllerEvent,
        delegate body: (@Sendable (any PictureInPictureControllerDelegate, PictureInPictureController) -> Void)? = nil,
        otherwise: (@Sendable () -> Void)? = nil
    ) {
        produced.yield(event)
        executor.enqueue { [self] in
            events.yield(event)
            let (controller, delegate) = state.withLock { ($0.controller.value, $0.delegate.value) }
            if let body, let controller, let delegate {
                body(delegate, controller)
            } else {
                otherwise?()
            }
        }
    }

    /// After a release, once no session is left: drop the host's connection and end the stream (after every
    /// event already handed to the executor).
    private func finishIfReleased() {
        let finish = state.withLock { s -> Bool in
            guard s.machine.isReleased, s.machine.phase == .idle, !s.finished else { return false }
            s.finished = true
            return true
        }
        guard finish else { return }
        host.unregister(connection)
        executor.enqueue { [events] in events.finish() }
    }

    // MARK: Skips

    /// Performs a skip from the window on the content, and completes it exactly once.
    private func performSkip(_ request: SkipRequest) {
        let source = state.withLock { $0.source }
        switch source.kind {
        case .playerLayer(let layer):
            guard let player = layer.player else {
                completeSkip(request, finished: false)
                return
            }
            let target = max(player.currentTime() + MediaTime(request.interval), .zero)
            Task { [self] in
                let finished = await player.seek(to: target, exact: true, origin: .pictureInPictureSkip)
                completeSkip(request, finished: finished)
            }
        case .sampleBuffer:
            executor.enqueue { [self] in
                let controller = state.withLock { $0.controller.value }
                guard let controller, let delegate = source.sampleBufferPlaybackDelegate else {
                    completeSkip(request, finished: false)
                    return
                }
                delegate.pictureInPictureController(controller, skipByInterval: MediaTime(request.interval)) {
                    [self] in completeSkip(request, finished: true)
                }
            }
        }
    }

    /// The first call for `request` resumes the window's waiter and refreshes the playback state; later calls
    /// (an app calling its completion twice) are ignored.
    private func completeSkip(_ request: SkipRequest, finished: Bool) {
        guard let waiter = state.withLock({ $0.skipWaiters.removeValue(forKey: request.id) }) else { return }
        invalidatePlaybackState()
        waiter.resume(returning: .completed(request.id, finished: finished))
    }

    // MARK: Playback state and window controls

    /// The content's playback may have changed: a sample-buffer source is asked again (on the executor), then
    /// the host reads the state; for a player-layer source the host reads it at once.
    func invalidatePlaybackState() {
        let source = state.withLock { $0.source }
        if source.sampleBufferDisplayLayer != nil {
            querySampleBufferState(of: source)
        } else {
            host.playbackStateDidInvalidate(for: connection)
        }
    }

    /// Asks the sample-buffer delegate for its time range and paused state (on the executor), caches the answer
    /// in the source, and lets the host read it. `before` runs first, on the executor, with the delegate.
    func querySampleBufferState(
        of source: ContentSource,
        before: (@Sendable (any SampleBufferPlaybackDelegate, PictureInPictureController) -> Void)? = nil
    ) {
        executor.enqueue { [self] in
            let controller = state.withLock { $0.controller.value }
            guard let controller, let delegate = source.sampleBufferPlaybackDelegate else { return }
            before?(delegate, controller)
            source.sampleBufferState = (
                delegate.pictureInPictureControllerTimeRangeForPlayback(controller),
                delegate.pictureInPictureControllerIsPlaybackPaused(controller)
            )
            host.playbackStateDidInvalidate(for: connection)
        }
    }
}

extension MediaTime {
    /// The nearest time to `duration`, in microseconds.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(value: seconds * 1_000_000 + attoseconds / 1_000_000_000_000, timescale: 1_000_000)
    }
}
