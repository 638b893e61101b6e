// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "playctl",
    products: [
        .executable(name: "playctl", targets: ["playctl"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "PictureInPicture", targets: ["PictureInPicture"]),
    ],
    targets: [
        // FFmpeg 5.1 (Debian 12). The module map links every library: Debian's .pc files list them only privately.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                              "libswresample-dev", "libavfilter-dev", "pkg-config"])]
        ),
        // The only Swift module that imports FFmpeg.
        // The project's lock (pthread-based, so ThreadSanitizer sees it; see Locked.swift).
        .target(name: "Locking"),
        .target(name: "MediaIO", dependencies: ["CFFmpeg"]),  // no Locking: the fuzz build compiles it alone
        .target(name: "Playback", dependencies: ["MediaIO", "Locking"]),
        .target(name: "PictureInPicture", dependencies: ["Playback", "Locking"]),
        .target(name: "PlayctlCLI", dependencies: ["MediaIO", "Playback", "PictureInPicture", "Locking"]),
        .executableTarget(name: "playctl", dependencies: ["PlayctlCLI"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "Locking"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaIO", "Locking"]),
        .testTarget(name: "PictureInPictureTests", dependencies: ["PictureInPicture", "Playback", "Locking"]),
        .testTarget(name: "PlayctlCLITests", dependencies: ["PlayctlCLI", "Locking"]),
    ]
)
