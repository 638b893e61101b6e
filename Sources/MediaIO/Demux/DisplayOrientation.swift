/// How a display matrix turns and mirrors a picture, in the terms FFmpeg's autorotation (fftools) uses.
enum DisplayOrientation {
    /// Clockwise degrees and whether to mirror left to right first, for a matrix whose rotation reads as
    /// `clockwise` degrees and whose entries a (`[0]`), c (`[3]`) and d (`[4]`) are given (16.16 fixed point).
    ///
    /// FFmpeg's choices, each written as "mirror, then turn clockwise": at 90, transpose `cclock_flip` when c > 0
    /// (a mirror turned 270) else `clock` (90); at 180, `hflip` when a < 0 and `vflip` when d < 0 (both: 180;
    /// hflip alone: a mirror; vflip alone: a mirror turned 180); at 270, `clock_flip` when c < 0 (a mirror turned
    /// 90) else `cclock` (270); at 0, `vflip` when d < 0 (a mirror turned 180).
    static func from(clockwise: Int, a: Int32, c: Int32, d: Int32) -> (rotation: Int, mirrored: Bool) {
        switch clockwise {
        case 90: return c > 0 ? (270, true) : (90, false)
        case 180:
            switch (a < 0, d < 0) {
            case (true, true): return (180, false)
            case (true, false): return (0, true)
            case (false, true): return (180, true)
            case (false, false): return (0, false)
            }
        case 270: return c < 0 ? (90, true) : (270, false)
        default: return d < 0 ? (180, true) : (0, false)
        }
    }
}
