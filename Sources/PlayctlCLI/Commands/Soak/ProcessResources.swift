import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What this process holds right now, as Linux reports it under `/proc/self`: resident memory, open file
/// descriptors and threads. The soak command compares snapshots taken before and after its work.
package struct ProcessResources: Equatable, Sendable {
    /// Resident memory in bytes (`/proc/self/statm`, second field, times the page size).
    package var residentBytes: Int
    /// Of it, anonymous memory (`RssAnon`: heap, stacks; not code and data mapped from files).
    package var anonymousBytes: Int
    /// Open file descriptors (entries of `/proc/self/fd`, the one used to list them excluded).
    package var fileDescriptors: Int
    /// Threads (entries of `/proc/self/task`).
    package var threads: Int
    /// Thread names (`/proc/self/task/N/comm`) and how many threads carry each: says whose a leftover thread is.
    package var threadNames: [String: Int]

    /// The process now. Fields that cannot be read are -1 (no `/proc`: not Linux).
    package static func current() -> ProcessResources {
        let tasks = DirectoryListing.names(in: "/proc/self/task")
        var names: [String: Int] = [:]
        for task in tasks ?? [] {
            let name = readText("/proc/self/task/\(task)/comm")?.trimmingNewlines() ?? "?"
            names[name, default: 0] += 1
        }
        return ProcessResources(
            residentBytes: ProcessMemory.residentBytes(),
            anonymousBytes: ProcessMemory.anonymousResidentBytes(),
            // Listing the directory opens one descriptor of its own.
            fileDescriptors: DirectoryListing.names(in: "/proc/self/fd").map { $0.count - 1 } ?? -1,
            threads: tasks?.count ?? -1,
            threadNames: names)
    }

    /// Caps glibc's malloc arenas at `count` (`mallopt(M_ARENA_MAX)`). glibc adds an arena, up to 8 per CPU,
    /// whenever threads contend for the heap, and keeps each one: with many short-lived decoding threads the arena
    /// count, and with it resident memory, creeps up for a long while without any leak. Capping it early makes
    /// resident memory track what is allocated.
    package static func limitMallocArenas(to count: Int32) {
        setMallocOption(-8, to: count)  // M_ARENA_MAX in malloc.h
    }

    /// Fixes glibc's mmap threshold at `bytes` (`mallopt(M_MMAP_THRESHOLD)`): blocks that large are mapped on their
    /// own and handed back to the system when freed. By default the threshold rises to the largest block freed so
    /// far (up to 32 MB), so after the first decoder closes, its successors' frame buffers and the byte cache's
    /// 256 KB chunks come from the heap, and what they free stays resident until a trim: in `bench --feed`'s soak
    /// the peak was 151-154 MB with the default and 144-146 MB with 128 KB, the means 3 MB lower.
    package static func fixMmapThreshold(at bytes: Int32) {
        setMallocOption(-3, to: bytes)  // M_MMAP_THRESHOLD in malloc.h
    }

    /// `mallopt(option, value)`: not in Swift's Glibc module (malloc.h), so looked up.
    private static func setMallocOption(_ option: Int32, to value: Int32) {
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: SetOption.self)(option, value)
    }

    /// A small text file's contents (procfs files report size 0, so read until the end).
    private static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
