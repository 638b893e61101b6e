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
}
