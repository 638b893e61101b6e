import Foundation

/// Starts `body` on a thread of its own (never Swift's cooperative pool), named for debuggers.
///
/// The `Thread` is deliberately not kept: its block retains the owner until `body` returns, and a stored Thread
/// would keep that block (and so the owner, its decoders and frames) alive forever.
func startDedicatedThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.stackSize = 1 << 20
    thread.start()
}
