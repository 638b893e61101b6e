#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// This process's memory as Linux reports it (`/proc/self/statm`), for memory budgets and benchmarks.
public enum ProcessMemory {
    /// Resident memory in bytes now (the second field of `/proc/self/statm` times the page size); -1 when it
    /// cannot be read (no `/proc`).
    public static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return -1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return -1 }
        let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Anonymous resident memory in bytes now (`RssAnon` of `/proc/self/status`: heap, thread stacks, anonymous
    /// mappings; not the pages of the program and libraries mapped from their files, which grow as code runs for
    /// the first time and shrink when the kernel reclaims them); -1 when it cannot be read.
    public static func anonymousResidentBytes() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("RssAnon:") else { continue }
            let kilobytes = text.dropFirst("RssAnon:".count).split { $0 == " " || $0 == "\t" }.first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 } ?? -1
        }
        return -1
    }

    /// Gives freed heap memory back to the system (glibc's `malloc_trim`), so that resident memory shows what is in
    /// use rather than what the allocator keeps for reuse (with many decoding threads, glibc keeps a heap per
    /// thread it saw contend). Blocking, up to a few milliseconds with a large heap: call it on a thread of its
    /// own. Does nothing where the C library has no `malloc_trim`.
    public static func releaseFreeMemory() {
        // Not in Swift's Glibc module (malloc.h): looked up.
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
