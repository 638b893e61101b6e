// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C API's functions carry their C names: `@c @implementation` checks each against include/playctl.h.
import CPlayctl
import Dispatch
import Locking
import PictureInPicture
import Playback

/// What a `playctl_pip *` points at: a Picture in Picture controller over a player's layer, hosted by a simulated
/// system on the player's clock. Its events go to the queue of the player it was made for (`owner`).
final class CPictureInPicture: Sendable {
    let controller: PictureInPictureController
    let system: SimulatedPictureInPictureSystem
    /// The player whose picture the window shows (retained while shown).
    let content: Locked<CPlayer>

    init(owner: CPlayer) {
        system = SimulatedPictureInPictureSystem(profile: .iOS, clock: owner.clock)
        controller = PictureInPictureController(playerLayer: owner.layer, system: system)
        content = Locked(owner)
    }

    /// Starts forwarding the controller's events to `owner`'s queue, tagged with `handle`.
    func forwardEvents(to owner: CPlayer, handle: UInt) {
        controller.observeEvents { [weak owner] event in
            guard let owner, let out = Self.event(event, pip: handle, player: owner) else { return }
            owner.push(out)
        }
    }

    private static func event(_ event: PictureInPictureControllerEvent, pip: UInt, player: CPlayer) -> QueuedEvent? {
        var out: QueuedEvent
        switch event {
        case .possible(let possible):
            out = QueuedEvent(PLAYCTL_EVENT_PIP_POSSIBLE)
            out.value = possible ? 1 : 0
        case .willStart: out = QueuedEvent(PLAYCTL_EVENT_PIP_WILL_START)
        case .didStart: out = QueuedEvent(PLAYCTL_EVENT_PIP_DID_START)
        case .failedToStart(let error):
            out = QueuedEvent(PLAYCTL_EVENT_PIP_FAILED_TO_START)
            out.error = PLAYCTL_ERROR_PIP.rawValue
            out.message = "\(error)"
        case .restoreUserInterface: out = QueuedEvent(PLAYCTL_EVENT_PIP_RESTORE)
        case .willStop: out = QueuedEvent(PLAYCTL_EVENT_PIP_WILL_STOP)
        case .didStop: out = QueuedEvent(PLAYCTL_EVENT_PIP_DID_STOP)
        case .contentSource(let item, let mode):
            out = QueuedEvent(PLAYCTL_EVENT_PIP_CONTENT_SWAPPED)
            out.item = item
            out.value = mode == .source ? 1 : 0
        case .suspended(let suspended):
            out = QueuedEvent(PLAYCTL_EVENT_PIP_SUSPENDED)
            out.value = suspended ? 1 : 0
        case .stoppedBySystem(let reason):
            out = QueuedEvent(PLAYCTL_EVENT_PIP_STOPPED_BY_SYSTEM)
            out.message = reason.rawValue
        case .playbackState: return nil
        }
        out.pip = pip
        out.clockTime = player.player.clockTime
        return out
    }
}

private func cPictureInPicture(_ handle: OpaquePointer?) -> CPictureInPicture? {
    guard let handle else { return nil }
    return Unmanaged<CPictureInPicture>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

@c @implementation
public func playctl_pip_create(_ handle: OpaquePointer?, _ config: UnsafePointer<playctl_pip_config>?) -> OpaquePointer?
{
    guard let owner = cPlayer(handle) else { return nil }
    if let config {
        var reserved = config.pointee.reserved
        let isZero = withUnsafeBytes(of: &reserved) { $0.allSatisfy { $0 == 0 } }
        guard isZero else { return nil }
    }
    let pip = CPictureInPicture(owner: owner)
    let pointer = Unmanaged.passRetained(pip).toOpaque()
    pip.forwardEvents(to: owner, handle: UInt(bitPattern: pointer))
    return OpaquePointer(pointer)
}

@c @implementation
public func playctl_pip_start(_ handle: OpaquePointer?) -> Int32 {
    guard let pip = cPictureInPicture(handle) else { return invalidArgument }
    do throws(PictureInPictureError) {
        try pip.controller.startPictureInPicture()
    } catch {
        return pip.content.withLock { $0 }.fail(PLAYCTL_ERROR_INVALID_STATE, "picture in picture: \(error)")
    }
    return success
}

@c @implementation
public func playctl_pip_stop(_ handle: OpaquePointer?) -> Int32 {
    guard let pip = cPictureInPicture(handle) else { return invalidArgument }
    pip.controller.stopPictureInPicture()
    return success
}

@c @implementation
public func playctl_pip_swap(
    _ handle: OpaquePointer?, _ playerHandle: OpaquePointer?, _ url: UnsafePointer<CChar>?
)
    -> Int32
{
    guard let pip = cPictureInPicture(handle), (playerHandle == nil) != (url == nil) else { return invalidArgument }
    if let url {
        // A new item in the player shown.
        let content = pip.content.withLock { $0 }
        return playctl_load(OpaquePointer(Unmanaged.passUnretained(content).toOpaque()), url, 0)
    }
    guard let player = cPlayer(playerHandle) else { return invalidArgument }
    pip.content.withLock { $0 = player }
    pip.controller.contentSource = ContentSource(playerLayer: player.layer)
    return success
}

@c @implementation
public func playctl_pip_get_state(
    _ handle: OpaquePointer?, _ out: UnsafeMutablePointer<playctl_pip_state>?
)
    -> Int32
{
    guard let pip = cPictureInPicture(handle), let out else { return invalidArgument }
    var state = playctl_pip_state()
    state.possible = pip.controller.isPictureInPicturePossible ? 1 : 0
    state.active = pip.controller.isPictureInPictureActive ? 1 : 0
    state.suspended = pip.controller.isPictureInPictureSuspended ? 1 : 0
    state.frames_shown = UInt64(pip.system.window(for: pip.controller)?.framesShown ?? 0)
    state.player = OpaquePointer(Unmanaged.passUnretained(pip.content.withLock { $0 }).toOpaque())
    out.pointee = state
    return success
}

@c @implementation
public func playctl_pip_destroy(_ handle: OpaquePointer?) {
    guard let handle else { return }
    let pip = Unmanaged<CPictureInPicture>.fromOpaque(UnsafeRawPointer(handle))
    let controller = pip.takeUnretainedValue().controller
    controller.invalidate()
    // The stop an active session makes (willStop, didStop) reaches the player's queue before this returns, and no
    // delegate call of the session runs after it.
    let delivered = DispatchSemaphore(value: 0)
    Task.detached {
        await controller.callbacksDelivered()
        delivered.signal()
    }
    delivered.wait()
    pip.release()
}
