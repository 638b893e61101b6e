// The vocabulary of the posters API (times, errors, images), visible with `import Posters`.
@_exported import MediaCore
