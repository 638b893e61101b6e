// `import AVFoundation` on Linux: every name of PlayctlAVFoundation (AVFoundation's, AVKit's and CoreMedia's) and
// Foundation, so that iOS playback code builds with its imports unchanged (docs/avfoundation.md).
@_exported import PlayctlAVFoundation
