// libFuzzer entry point over the media layer: open, probe, decode, exact seek. Built by scripts/fuzz.sh together
// with Sources/MediaCore, Sources/MediaIO and PlaybackTesting's MediaFuzzCase (one module), never by SwiftPM.
#if canImport(Glibc)
import Glibc
#endif

/// Where each input is written: FFmpeg opens files by path, and MediaIO has no custom I/O yet.
private let inputPath: String = {
    let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(dir)/playctl-fuzz-media-\(getpid()).mp4"
}()

/// Writes `bytes` to `inputPath`, replacing what was there.
private func writeInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Bool {
    let fd = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var offset = 0
    while offset < size {
        let written = write(fd, data + offset, size - offset)
        if written <= 0 { return false }
        offset += written
    }
    return true
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard writeInput(data, size) else { return 0 }
    MediaFuzzCase.run(path: inputPath, seekSeed: size > 0 ? data[size - 1] : 0)
    // The ID3 parser on the input itself (an MP3 seed starts with a tag), and as FFmpeg 5.1 hands timed ID3 over.
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ID3Tag.frames(in: bytes)
    _ = ID3Tag.frames(withoutIdentifier: bytes)
    return 0
}
