import Dispatch
import Locking
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A long command's progress on standard error, one line redrawn in place (step, done/total, elapsed, an estimate
/// of what is left), when standard error is a terminal and the command prints no JSON; otherwise it writes nothing.
/// Redraws at most ten times a second. Whoever writes other lines to the terminal clears it first (`clear()`); the
/// next `update` draws it again.
package final class ProgressLine: Sendable {
    private struct State {
        var shown: Bool
        var started: UInt64
        var lastDraw: UInt64 = 0
        var drawn = false
        var text = ""
    }

    private let state: Locked<State>

    /// A line that is drawn only when `shown`.
    package init(shown: Bool) {
        state = Locked(State(shown: shown, started: DispatchTime.now().uptimeNanoseconds))
    }

    /// A line on standard error when it is a terminal, unless the command prints JSON.
    package static func onStandardError(json: Bool) -> ProgressLine {
        ProgressLine(shown: !json && isatty(STDERR_FILENO) == 1)
    }

    /// Whether it draws at all.
    package var isShown: Bool { state.withLock { $0.shown } }

    /// Shows or hides it from now on (hiding clears it).
    package func setShown(_ shown: Bool) {
        clear()
        state.withLock {
            $0.shown = shown
            $0.started = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Shows `step`, with `done` of `total` when given, the time since the line was made and, with both, an
    /// estimate of the time left.
    package func update(_ step: String, done: Int? = nil, total: Int? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        let line: String? = state.withLock { state in
            guard state.shown else { return nil }
            let changed = step != state.text
            guard changed || done == total || now - state.lastDraw >= 100_000_000 else { return nil }
            state.lastDraw = now
            state.text = step
            state.drawn = true
            return Self.text(step, done: done, total: total, elapsed: Double(now - state.started) / 1e9)
        }
        if let line { write("\r\u{1B}[K" + line) }
    }

    /// Erases the line (before other output, or at the end).
    package func clear() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { write("\r\u{1B}[K") }
    }

    /// `thumbnails 12/60, 1.2 s, about 4.8 s left`.
    static func text(_ step: String, done: Int?, total: Int?, elapsed: Double) -> String {
        var text = step
        if let done { text += " \(done)" + (total.map { "/\($0)" } ?? "") }
        text += ", " + DecimalText.format((elapsed * 10).rounded() / 10) + " s"
        if let done, let total, done > 0, total > done {
            let left = elapsed / Double(done) * Double(total - done)
            text += ", about " + DecimalText.format(left.rounded()) + " s left"
        }
        return String(text.prefix(120))
    }

    private func write(_ text: String) {
        _ = FileDescriptorIO.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}
