// swift-tools-version:6.0
import PackageDescription

// libPlayctlC.so's static Swift runtime: Foundation and what it needs, in one linker group (autolinking names them
// only for dynamic links). Passed through -Xlinker so that the group keeps them together.
let staticFoundation =
    (["--start-group"]
    + [
        "Foundation", "FoundationInternationalization", "FoundationEssentials", "_FoundationICU",
        "_FoundationCollections", "_FoundationCShims", "CoreFoundation", "swiftSynchronization", "swift_RegexParser",
        "swift_StringProcessing", "swift_Concurrency", "swiftDispatch", "dispatch", "BlocksRuntime",
    ].map { "-l\($0)" } + ["--end-group"]).flatMap { ["-Xlinker", $0] }

// Modules named as Apple's (Linux only: on Apple platforms the system's own are meant), each re-exporting
// PlayctlAVFoundation, so that iOS playback code builds with its imports unchanged: `import AVFoundation`,
// `import AVKit`, `import CoreMedia`, `import class AVKit.AVPictureInPictureController` (docs/avfoundation.md).
#if os(Linux)
let appleNames = ["AVFoundation", "AVKit", "CoreMedia"]
#else
let appleNames: [String] = []
#endif
let appleNamedProducts: [Product] = appleNames.map { .library(name: $0, targets: [$0]) }
let appleNamedTargets: [Target] = appleNames.map { .target(name: $0, dependencies: ["PlayctlAVFoundation"]) }

let package = Package(
    name: "playctl",
    products: [
        .executable(name: "playctl", targets: ["playctl"]),
        // The benchmarks, apart: they link the test kit, which the playctl executable does not (scripts/bench.sh).
        .executable(name: "playctl-bench", targets: ["playctl-bench"]),
        .library(name: "MediaCore", targets: ["MediaCore"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        .library(name: "Loading", targets: ["Loading"]),
        .library(name: "Streaming", targets: ["Streaming"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "PictureInPicture", targets: ["PictureInPicture"]),
        .library(name: "Feed", targets: ["Feed"]),
        .library(name: "Posters", targets: ["Posters"]),
        .library(name: "PlaybackTesting", targets: ["PlaybackTesting"]),
        .library(name: "PlayctlAVFoundation", targets: ["PlayctlAVFoundation"]),
        .library(name: "PlayctlAVFoundationTesting", targets: ["PlayctlAVFoundationTesting"]),
        // The C API (include/playctl.h), built as libPlayctlC.so (a product may not share the executable's name);
        // scripts/install-capi.sh installs it as libplayctl.so.0, its soname (docs/c-api.md).
        .library(name: "PlayctlC", type: .dynamic, targets: ["PlayctlC"]),
    ] + appleNamedProducts,
    targets: [
        // FFmpeg 5.1 (Debian 12). The module map links every library: Debian's .pc files list them only privately.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                    "libswresample-dev", "libavfilter-dev", "pkg-config",
                ])
            ]
        ),
        // libpulse's headers (Debian's libpulse-dev) for its types: the library is opened with dlopen, not linked.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // libcurl 7.88 (Debian 12). The shim wraps the variadic setopt/getinfo calls.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libxml2 2.9 (Debian 12) for DASH manifests; FFmpeg's DASH demuxer links it too.
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The shared vocabulary, with no C import: time, errors, tracks, frames and buffers, byte sources.
        .target(name: "MediaCore"),
        // The project's lock (pthread-based, so ThreadSanitizer sees it; see Locked.swift).
        .target(name: "Locking"),
        // The only Swift module that imports FFmpeg. No Locking: the fuzz build compiles it alone.
        .target(name: "MediaIO", dependencies: ["MediaCore", "CFFmpeg"]),
        // The only Swift module that imports libcurl: HTTP transfers and the byte cache, behind the Transport
        // protocol (the simulated network that also implements it is PlaybackTesting's).
        .target(name: "Loading", dependencies: ["MediaCore", "CCurl", "Locking"]),
        // The only Swift module that imports libpulse: the PulseAudio device (libpulse loaded at run time).
        .target(name: "AudioDevice", dependencies: ["CPulse", "Locking"]),
        // HLS and DASH: manifests (the only Swift module that imports libxml2), segments as one byte stream per
        // rendition through Loading, the ABR machine, AES-128 segments decrypted with MediaIO's (libavutil's) AES
        // (docs/streaming.md).
        .target(name: "Streaming", dependencies: ["MediaCore", "MediaIO", "Loading", "Locking", "CXML2"]),
        .target(
            name: "Playback", dependencies: ["MediaCore", "MediaIO", "Loading", "Streaming", "Locking", "AudioDevice"]),
        .target(name: "PictureInPicture", dependencies: ["MediaCore", "Playback", "Locking"]),
        // Feeds of short remote videos and images: a player pool, the prefetch planner, the feed controller.
        .target(name: "Feed", dependencies: ["MediaCore", "Loading", "Streaming", "Playback", "Posters", "Locking"]),
        // Posters and images: a first-frame and image pipeline (shared in-flight work, a cost-bounded cache,
        // cancellation by the last waiter, decoding to the displayed size, timings per stage).
        .target(name: "Posters", dependencies: ["MediaCore", "MediaIO", "Loading", "Locking"]),
        // AVFoundation's, AVKit's and CoreMedia's names over Playback and PictureInPicture, for iOS playback code
        // to build and run on Linux; the modules AVFoundation, AVKit and CoreMedia re-export it (docs/avfoundation.md).
        .target(
            name: "PlayctlAVFoundation",
            dependencies: [
                "MediaCore", "MediaIO", "Loading", "Streaming", "Playback", "PictureInPicture", "Posters", "Locking",
                "AudioDevice",
            ]),
        // Tests of code written against PlayctlAVFoundation: a manual clock driver, a recorder of everything
        // observable as a trace, golden traces (it imports Testing to report mismatches).
        .target(
            name: "PlayctlAVFoundationTesting",
            dependencies: ["PlayctlAVFoundation", "Playback", "PictureInPicture", "Locking"]),
        // A declarative command-line parser (tools, commands declared as types whose options are property wrappers,
        // help, usage errors with suggestions), not tied to playctl; its fuzz case is in Fuzzing/. No dependencies: scripts/fuzz.sh args
        // builds it alone.
        .target(name: "CommandLineKit"),
        // How playctl writes: JSON values and JSON Lines, unbuffered descriptor writes, times and rates as text.
        .target(name: "PlayctlOutput", dependencies: ["MediaCore", "Locking"]),
        // The JSON vocabulary of the feed's and the metric events (`feed.*`, `metric.*`), written by `playctl
        // --json` and carried by the C API's events.
        .target(name: "EventJSON", dependencies: ["MediaCore", "Streaming", "Playback", "Feed", "PlayctlOutput"]),
        // Tools for tests, the project's and users': throttled and failing sources, seeded randomness (SplitMix64),
        // the repository's media fixtures and references, the broken-media corpus, the media and manifest fuzz cases, a
        // process runner, test HTTP servers, a simulated network. It imports no Testing. playctl-bench links it
        // (PlayctlBench); the playctl executable must not (PlayctlCLITests' ShippedSymbolsTests reads its symbol table).
        .target(
            name: "PlaybackTesting",
            dependencies: ["MediaCore", "MediaIO", "Loading", "Streaming", "Playback", "Locking", "PlayctlOutput"]),
        // The commands: Arguments/ declares what each accepts (CommandLineKit only), Commands/ runs it. `feed` and
        // `soak` seed their randomness with a SeededGenerator of their own; `soak` reads the process's resources under
        // /proc. JSON is read with Foundation. No test kit: this is what the playctl executable ships.
        .target(
            name: "PlayctlCLI",
            dependencies: [
                "CommandLineKit", "MediaIO", "Playback", "PictureInPicture", "Feed", "Locking", "PlayctlOutput",
                "Posters", "Streaming", "EventJSON",
            ]),
        .executableTarget(name: "playctl", dependencies: ["PlayctlCLI"]),
        // The benchmarks and playctl-bench's command (Arguments/: CommandLineKit only; Commands/ runs it with
        // PlayctlCLI's driver). They spawn the playctl built next to them and the reference tools with the test kit's
        // ProcessRunner, serve over its HTTP servers, and run --feed --sweep on its simulated network.
        .target(
            name: "PlayctlBench",
            dependencies: [
                "CommandLineKit", "PlayctlCLI", "MediaIO", "Playback", "PictureInPicture", "Posters", "Feed", "Locking",
                "PlayctlOutput", "PlaybackTesting", "Streaming",
            ]),
        .executableTarget(name: "playctl-bench", dependencies: ["PlayctlBench", "PlayctlCLI"]),
        // The hand-written C header (include/playctl.h) as a module: PlayctlC implements its functions with
        // `@c @implementation`, so the compiler checks each one against the header's declaration.
        .systemLibrary(name: "CPlayctl"),
        // libplayctl.so for non-Swift hosts: the Swift runtime and Foundation linked statically (-static-stdlib),
        // soname libplayctl.so.0, only playctl_* exported (playctl.map). No test target may depend on it: its link
        // flags would make the test bundle link a second, static Swift runtime.
        .target(
            name: "PlayctlC",
            dependencies: [
                "CPlayctl", "Playback", "PictureInPicture", "MediaIO", "Locking", "Feed", "Posters", "EventJSON",
                "PlayctlOutput",
            ],
            exclude: ["playctl.map"],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xlinker", "-soname=libplayctl.so.0",
                        "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/PlayctlC/playctl.map",
                    ] + staticFoundation)
            ]),
        // Test targets share their helpers through PlaybackTesting (no symbolic links between them).
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "Locking", "PlaybackTesting"]),
        .testTarget(name: "AudioDeviceTests", dependencies: ["AudioDevice", "Locking", "PlaybackTesting"]),
        // Embedding playctl: the C API's tests (C programs built against an installed libplayctl.so, run from here)
        // and the examples in Examples/.
        .testTarget(name: "EmbeddingTests", dependencies: ["PlaybackTesting"]),
        // Builds nothing of its own: typechecks the README's and docs/' Swift examples against the built modules.
        .testTarget(name: "DocumentationTests", dependencies: ["PlaybackTesting"]),
        .testTarget(name: "FeedTests", dependencies: ["Feed", "MediaIO", "PlaybackTesting", "Locking", "Streaming"]),
        .testTarget(name: "PostersTests", dependencies: ["Posters", "MediaIO", "PlaybackTesting", "Locking"]),
        .testTarget(name: "LoadingTests", dependencies: ["Loading", "PlaybackTesting", "Locking"]),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "Loading", "PlaybackTesting", "Locking"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaIO", "Locking", "PlaybackTesting"]),
        .testTarget(
            name: "PictureInPictureTests",
            dependencies: ["PictureInPicture", "Playback", "MediaIO", "Locking", "PlaybackTesting"]),
        // App-style code written against AVFoundation (its imports as on iOS), with golden traces.
        .testTarget(
            name: "PlayctlAVFoundationTests",
            dependencies: [
                "PlayctlAVFoundation", "PlayctlAVFoundationTesting", "Playback", "PictureInPicture", "PlaybackTesting",
            ] + appleNames.map { .target(name: $0) },
            exclude: ["Goldens"]),
        .testTarget(
            name: "PlayctlCLITests",
            dependencies: [
                "PlayctlCLI", "CommandLineKit", "PlayctlBench", "PlayctlOutput", "MediaIO", "Feed", "Locking",
                "PlaybackTesting",
            ],
            exclude: ["Snapshots"]),  // help and usage-error texts, compared byte for byte
    ] + appleNamedTargets
)

// The sanitizer passes of .ci/run build with PLAYCTL_LIBRARY_ONLY=1: the package without what they do not run: the
// playctl and playctl-bench executables with their modules and tests (PlayctlCLITests: the plain pass runs them), and
// the C library with its embedding tests (their C programs cannot load a library built with a sanitizer). A quarter of
// the sources, so a quarter of each sanitizer build.
if Context.environment["PLAYCTL_LIBRARY_ONLY"] != nil {
    let cli: Set = [
        "playctl", "playctl-bench", "PlayctlCLI", "PlayctlBench", "CommandLineKit", "EventJSON", "PlayctlC", "CPlayctl",
        "PlayctlCLITests", "EmbeddingTests",
    ]
    package.products.removeAll { cli.contains($0.name) }
    package.targets.removeAll { cli.contains($0.name) }
}
