import Foundation

@testable import Loading

/// What a loader holds of the process, read from /proc: its thread and its sockets to a server. Tests check that
/// an idle loader holds none (counting only what is its own: other tests run in parallel in the same process).
enum LoaderResources {
    /// Sockets of this process connected to the loopback `port`: those of its descriptors whose inode is a TCP
    /// connection to that port in /proc/self/net/tcp (or tcp6).
    static func sockets(toPort port: Int) -> Int {
        var inodes: Set<String> = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst(8).dropLast()))
        }
        let remote = String(format: ":%04X", port)
        var count = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[2].hasSuffix(remote), inodes.contains(String(fields[9])) else {
                    continue
                }
                count += 1
            }
        }
        return count
    }

    /// The name of this process's thread `id`, nil when it has none (the thread ended).
    static func threadName(_ id: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (polling, up to `seconds`) until `loader`'s thread `thread` ended and no socket to `port` is left.
    /// Returns what is still there at the deadline, nil when everything went.
    static func waitUntilReleased(_ loader: HTTPLoader, thread: pid_t, port: Int, seconds: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            var left: [String] = []
            if let name = threadName(thread) { left.append("thread \(thread) (\(name))") }
            if loader.threadID != nil { left.append("the loader's thread runs") }
            let sockets = sockets(toPort: port)
            if sockets > 0 { left.append("\(sockets) sockets to port \(port)") }
            if left.isEmpty { return nil }
            if Date() > deadline { return left.joined(separator: ", ") }
            usleep(20_000)
        }
    }
}
