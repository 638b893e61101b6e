@_exported import MediaCore

// What Playback's public API names and its users get with `import Playback`: MediaCore's vocabulary (times,
// errors, tracks, byte sources) and the audio device's error. `Loading` (named by `PlayerItem.loading` and
// `loadingPriority`, whose default values work without it) is imported where an item's loading is configured.
@_exported import struct AudioDevice.AudioDeviceError
