#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe whose two ends are close-on-exec.
struct PipeEnds {
    let readEnd: Int32
    let writeEnd: Int32

    /// `pipe2(O_CLOEXEC)`, looked up at run time (Swift's Glibc module leaves it out), or `pipe` and `fcntl` where
    /// it is missing.
    static func make(for executable: String) throws(ProcessRunnerError) -> PipeEnds {
        var ends: [Int32] = [-1, -1]
        let made: Int32
        if let pipe2 = pipe2Function {
            made = pipe2(&ends, O_CLOEXEC)
        } else {
            made = pipe(&ends)
            if made == 0 { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        }
        guard made == 0 else {
            throw ProcessRunnerError(operation: "create a pipe for", path: executable, errno: errno)
        }
        return PipeEnds(readEnd: ends[0], writeEnd: ends[1])
    }

    func closeBoth() {
        close(readEnd)
        close(writeEnd)
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    private static let pipe2Function: Pipe2? = dlsym(dlopen(nil, RTLD_NOW), "pipe2").map {
        unsafeBitCast($0, to: Pipe2.self)
    }
}
