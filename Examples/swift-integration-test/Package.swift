// swift-tools-version:6.0
import PackageDescription

// An app's own playback logic, tested with playctl on the manual clock. playctl is a dependency by path here; an
// app would name the repository's URL and a version instead.
let package = Package(
    name: "swift-integration-test",
    dependencies: [.package(name: "playctl", path: "../..")],
    targets: [
        .target(
            name: "PlaybackLogic",
            dependencies: [
                .product(name: "Playback", package: "playctl"),
                .product(name: "PictureInPicture", package: "playctl"),
            ]),
        .testTarget(
            name: "PlaybackLogicTests",
            dependencies: ["PlaybackLogic", .product(name: "Playback", package: "playctl")]),
        // iOS code with its imports unchanged: playctl's AVFoundation, AVKit and CoreMedia modules (Linux only).
        .target(
            name: "VideoScreen",
            dependencies: [
                .product(name: "AVFoundation", package: "playctl"), .product(name: "AVKit", package: "playctl"),
                .product(name: "CoreMedia", package: "playctl"),
            ]),
        .testTarget(
            name: "VideoScreenTests",
            dependencies: ["VideoScreen", .product(name: "AVFoundation", package: "playctl")]),
    ]
)
