/// An item's own video outputs, like `AVPlayerItem.add(_:)` with an `AVPlayerItemVideoOutput`.
extension PlayerItem {
    /// Adds a pull output that gets the frames of this item shown by whichever player plays it (and no other
    /// item's). Adding it twice adds it once.
    public func add(_ output: VideoOutput) {
        state.withLock { outputs in
            if !outputs.videoOutputs.contains(where: { $0 === output }) { outputs.videoOutputs.append(output) }
        }
    }

    /// Removes a video output: it gets no frame shown after this returns (it keeps those it holds).
    public func remove(_ output: VideoOutput) {
        state.withLock { $0.videoOutputs.removeAll { $0 === output } }
    }

    /// The item's video outputs, in the order they were added.
    public var videoOutputs: [VideoOutput] { state.withLock { $0.videoOutputs } }
}
