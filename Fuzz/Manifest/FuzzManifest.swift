// libFuzzer entry point over the adaptive-streaming manifest parsers (HLS, DASH, sidx). Built by scripts/fuzz.sh
// together with Sources/MediaCore, Sources/Streaming/Model, Sources/Streaming/Manifest and PlaybackTesting's
// ManifestFuzzCase (one module), never by SwiftPM.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // The first byte picks the parser, the rest is what it reads (ManifestFuzzCase).
    ManifestFuzzCase.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
