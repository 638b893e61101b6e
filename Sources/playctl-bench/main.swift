// The playctl-bench executable: the benchmarks (PlayctlBench), which spawn and time the playctl built next to it.
// It links the test kit (PlaybackTesting) for its servers, simulated network and process runner; playctl does not.
import PlayctlBench
import PlayctlCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(PlayctlMain.run(Array(CommandLine.arguments.dropFirst()), tool: PlayctlBenchCommands.tool))
