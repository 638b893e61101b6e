import Streaming

/// Something the engine decided under its lock and does after releasing it: starting or stopping an item's
/// machinery, making the audio device ready for a new format. (App code never appears here: callbacks go to the
/// player's ``CallbackExecutor`` in the order they were decided.)
enum EngineWork: Sendable {
    /// Open `item` on a loader thread, reading through `sources`.
    case startLoad(PlayerItem, OpenedSources)
    /// Stop an item's decoding threads.
    case stopLoadedItem(LoadedItem)
    /// Close the sources of a load still running (its loader thread then fails at once and is discarded).
    case closeSources(OpenedSources)
    /// The item no longer belongs to this player.
    case detach(PlayerItem)
    /// Make the audio device ready for a new audio format (a sound server's stream: a round trip to the server).
    case prepareAudioDevice(any AudioOutputDevice, sampleRate: Int, channels: Int)
    /// Tell an adaptive item's stream session that playback stalled (its ABR machine drops to a lower variant).
    case streamStalled(StreamSession)
    /// Tell a stream session where the playhead is (a host clock's play).
    case streamPlayhead(StreamSession, Double)
}
