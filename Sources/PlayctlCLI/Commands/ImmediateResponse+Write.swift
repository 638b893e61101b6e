import CommandLineKit
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ImmediateResponse {
    /// Writes `standardOutput` to standard output and `standardError` to standard error, after flushing C standard
    /// I/O so that earlier `print` output comes first. Write errors (a closed pipe) are ignored: there is nowhere
    /// left to report them. The caller then exits with `exitCode`.
    func write(standardOutputDescriptor: Int32 = 1, standardErrorDescriptor: Int32 = 2) {
        fflush(nil)
        if !standardOutput.isEmpty {
            _ = FileDescriptorIO.writeAll(Array(standardOutput.utf8), to: standardOutputDescriptor)
        }
        if !standardError.isEmpty {
            _ = FileDescriptorIO.writeAll(Array(standardError.utf8), to: standardErrorDescriptor)
        }
    }
}
