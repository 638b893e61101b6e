// `import CoreMedia` on Linux: every name of PlayctlAVFoundation, CMTime, CMTimeRange and their functions among
// them, so that iOS playback code builds with its imports unchanged (docs/avfoundation.md).
@_exported import PlayctlAVFoundation
