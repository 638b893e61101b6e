// `import AVKit` on Linux: every name of PlayctlAVFoundation, so that `import AVKit` and scoped imports such as
// `import class AVKit.AVPictureInPictureController` build unchanged (docs/avfoundation.md).
@_exported import PlayctlAVFoundation
