// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (CoreMedia's C names, as Apple spells them.)
import Locking

/// An item's timebase as its player plays it, as CoreMedia's `CMTimebase` read through `AVPlayerItem.timebase`: its
/// time is the item's current time, its rate the rate the item's time moves at (the player's rate while it plays the
/// item, 0 otherwise). Read-only, as the timebase AVFoundation hands out; when its rate changes,
/// `.TimebaseEffectiveRateChangedNotification` is posted with it as the object (on the player's callback thread).
public final class CMTimebase: NSObject, @unchecked Sendable {
    private weak var item: AVPlayerItem?
    /// The effective rate last announced.
    let announcedRate = Locked<Float64>(0)

    init(item: AVPlayerItem) {
        self.item = item
        super.init()
    }

    /// The item's current time (invalid once the item is gone).
    public var time: CMTime { item?.currentTime() ?? .invalid }

    /// The rate the item's time moves at now.
    public var rate: Float64 {
        guard let item, let player = item.owner.withLock({ $0.value }), player.currentItem === item,
            player.timeControlStatus == .playing
        else { return 0 }
        return Float64(player.rate)
    }
}

/// The timebase's time.
public func CMTimebaseGetTime(_ timebase: CMTimebase) -> CMTime { timebase.time }

/// The timebase's rate.
public func CMTimebaseGetRate(_ timebase: CMTimebase) -> Float64 { timebase.rate }

/// The timebase's time in `timeScale` units, rounded by `roundingMethod`.
public func CMTimebaseGetTimeWithTimeScale(
    _ timebase: CMTimebase, timeScale: CMTimeScale, roundingMethod: CMTimeRoundingMethod
) -> CMTime {
    CMTimeConvertScale(timebase.time, timescale: timeScale, method: roundingMethod)
}

extension NSNotification.Name {
    /// A timebase's effective rate changed (`kCMTimebaseNotification_EffectiveRateChanged`): the object is the
    /// timebase.
    public static let TimebaseEffectiveRateChangedNotification = Notification.Name(
        "CMTimebaseEffectiveRateChangedNotification")
}

extension CMTimebase {
    /// `CMTimebase.effectiveRateChangedNotification`, the modern name of the same notification.
    public static let effectiveRateChangedNotification = Notification.Name.TimebaseEffectiveRateChangedNotification
}

/// CoreFoundation's type identifier (Linux's Foundation has no CoreFoundation types in Swift).
public typealias CFTypeID = UInt

/// The type identifier of ``CMTimebase``: a constant of its own (there is no `CFGetTypeID` on Linux to compare it
/// with; `object is CMTimebase` does that check).
public func CMTimebaseGetTypeID() -> CFTypeID { 0x434D_5442 }
