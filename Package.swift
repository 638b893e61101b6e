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
        .target(name: "MediaIO", dependencies: ["CFFmpeg"]),
        .target(name: "Playback", dependencies: ["MediaIO"]),
        .target(name: "PictureInPicture", dependencies: ["Playback"]),
        .target(name: "PlayctlCLI", dependencies: ["MediaIO", "Playback", "PictureInPicture"]),
        .executableTarget(name: "playctl", dependencies: ["PlayctlCLI"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaIO"]),
        .testTarget(name: "PictureInPictureTests", dependencies: ["PictureInPicture", "Playback"]),
        .testTarget(name: "PlayctlCLITests", dependencies: ["PlayctlCLI"]),
    ]
)
