// libFuzzer entry point over the command-line parser with playctl's and playctl-bench's commands. Built by
// scripts/fuzz.sh together with Sources/PlayctlCLI/Arguments and Sources/PlayctlBench/Arguments (one module) on top of
// CommandLineKit, never by SwiftPM.
import CommandLineKit

/// The fuzz input as a command line: arguments separated by NUL bytes (no argument can contain one), each decoded
/// as UTF-8 with invalid sequences replaced, as the runtime does for `CommandLine.arguments`.
func commandLine(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    guard !bytes.isEmpty else { return [] }
    return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArgumentsInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let argv = commandLine(UnsafeBufferPointer(start: data, count: size))
    ArgumentsFuzzCase.run(argv, tool: PlayctlCommands.tool)
    ArgumentsFuzzCase.run(argv, tool: PlayctlBenchCommands.tool)
    return 0
}
