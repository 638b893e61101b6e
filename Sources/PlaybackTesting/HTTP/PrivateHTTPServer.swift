import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A private nginx for tests that break the server: it serves a folder of the test's own on a free loopback port,
/// and can be killed mid-transfer and started again on the same port, while the shared server of
/// `scripts/netns.sh` goes on serving the other tests.
///
/// nginx runs as one process (`master_process off`, `daemon off`), a child of the test process, so one signal ends
/// the whole server; its configuration follows `scripts/netns.sh`'s (ranges, keep-alive, ETag and Last-Modified
/// as nginx sends them). `bytesPerSecond` caps each response (`limit_rate`), so that a kill lands mid-transfer.
/// The server is killed when the value goes away.
public final class PrivateHTTPServer: @unchecked Sendable {
    /// Why the server could not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The folder served.
    public let root: String
    /// The loopback port it listens on (chosen when it starts first; the same after a restart).
    public private(set) var port = 0
    /// The cap on each response's rate, in bytes per second; nil for none.
    public let bytesPerSecond: Int?
    /// The `Cache-Control` field of every response, if any.
    public let cacheControl: String?
    /// The certificate and key files it serves HTTPS (and HTTP/2) with, when it does.
    public let tls: (certificate: String, key: String)?
    /// Where its configuration, pid file and error log are.
    private let directory: String
    private let executable: String
    /// The running nginx's pid; 0 when stopped.
    private let pid = Locked<pid_t>(0)

    /// The nginx executable, if installed.
    public static var executable: String? {
        ProcessRunner.findExecutable("nginx") ?? ProcessRunner.findExecutable("/usr/sbin/nginx")
    }

    /// Why tests of a private server skip here (printed, so a skip is never silent); nil when they run.
    public static var skipReason: String? {
        guard executable == nil else { return nil }
        let reason = "nginx is not installed (scripts/netns.sh installs nginx-light)"
        FileHandle.standardError.write(Data("WARNING: private-server tests skipped: \(reason)\n".utf8))
        return reason
    }

    /// Starts a server of `root` on a free loopback port, its responses with `cacheControl` as their
    /// `Cache-Control` field when given.
    /// - Throws: `Failure` when nginx is missing or does not start (its error log says why).
    ///
    /// With `tls` (a PEM certificate file and its key's), it serves HTTPS with HTTP/2 offered by ALPN.
    public init(
        root: String, bytesPerSecond: Int? = nil, cacheControl: String? = nil,
        tls: (certificate: String, key: String)? = nil
    ) throws(Failure) {
        self.cacheControl = cacheControl
        self.tls = tls
        guard let executable = Self.executable else { throw Failure(description: "nginx is not installed") }
        self.executable = executable
        self.root = root
        self.bytesPerSecond = bytesPerSecond
        directory = NSTemporaryDirectory() + "playctl-private-nginx-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot make \(directory): \(error)")
        }
        // A free port can be taken between the probe and nginx's bind: try a few.
        var lastFailure = Failure(description: "no free port")
        for _ in 0..<5 {
            guard let free = Self.freePort() else { continue }
            port = free
            do {
                try start()
                return
            } catch {
                lastFailure = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastFailure
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The URL of `path` (a file of the root).
    public func url(_ path: String) -> String { "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/\(path)" }

    /// Whether the server runs (started and not stopped).
    public var isRunning: Bool { pid.withLock { $0 } != 0 }

    /// Starts the server on its port (again, after `stop`) and waits until it accepts connections.
    /// - Throws: `Failure` when nginx exits or does not listen within five seconds.
    public func start() throws(Failure) {
        guard !isRunning else { return }
        let configuration = directory + "/nginx.conf"
        let log = directory + "/error.log"
        guard FileManager.default.createFile(atPath: configuration, contents: Data(self.configuration().utf8)) else {
            throw Failure(description: "cannot write \(configuration)")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable, ["-c", configuration, "-p", directory, "-e", log], standardOutput: .discard,
                standardError: .discard, environment: nil)
        } catch {
            throw Failure(description: "cannot start nginx: \(error)")
        }
        let deadline = ProcessRunner.monotonicSeconds() + 5
        while !Self.accepts(port: port) {
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid || ProcessRunner.monotonicSeconds() > deadline {
                kill(child.pid, SIGKILL)
                waitpid(child.pid, &status, 0)
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Failure(description: "nginx did not start on port \(port): \(said)")
            }
            usleep(5_000)
        }
        pid.withLock { $0 = child.pid }
    }

    /// Stops the server with `signal` (SIGKILL: at once, as a crash; SIGTERM: nginx's fast shutdown) and reaps it.
    /// Connections open to it are cut; the port is free for `start`.
    public func stop(signal: Int32 = SIGKILL) {
        let running = pid.withLock { pid -> pid_t in
            defer { pid = 0 }
            return pid
        }
        guard running != 0 else { return }
        kill(running, signal)
        var status: Int32 = 0
        while waitpid(running, &status, 0) < 0 && errno == EINTR {}
    }

    /// Stops the server with `signal` and starts it again on the same port.
    /// - Throws: `Failure` when it does not start again.
    public func restart(signal: Int32 = SIGKILL) throws(Failure) {
        stop(signal: signal)
        try start()
    }

    private func configuration() -> String {
        """
        user root;
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 64; }
        http {
          access_log off;
          sendfile on;
          keepalive_timeout 30;
          default_type application/octet-stream;
          client_body_temp_path \(directory)/body;
          proxy_temp_path \(directory)/proxy;
          server {
            listen 127.0.0.1:\(port)\(tls == nil ? "" : " ssl http2");
            \(tls.map { "ssl_certificate \($0.certificate); ssl_certificate_key \($0.key);" } ?? "")
            root \(root);
            \(bytesPerSecond.map { "limit_rate \($0);" } ?? "")
            \(cacheControl.map { "add_header Cache-Control \"\($0)\" always;" } ?? "")
          }
        }

        """
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    private static func freePort() -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Whether something accepts a connection on the loopback `port`.
    private static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                connect(descriptor, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
