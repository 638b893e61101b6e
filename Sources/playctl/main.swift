// The playctl executable: everything lives in PlayctlCLI, so that tests reach it without spawning a process.
import PlayctlCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(PlayctlMain.run(Array(CommandLine.arguments.dropFirst())))
