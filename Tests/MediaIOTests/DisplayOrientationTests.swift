import Testing

@testable import MediaIO

/// Each display matrix read as FFmpeg's autorotation (fftools) reads it: a quarter turn from the matrix's angle, and
/// a mirror where an entry's sign is more than the turn explains. Written as "mirror left to right, then turn
/// clockwise": transpose `cclock_flip` is a mirror turned 270, `clock_flip` a mirror turned 90, `vflip` a mirror
/// turned 180.
@Suite("Display matrices: turns and mirrors as FFmpeg reads them")
struct DisplayOrientationTests {
    static let one: Int32 = 0x10000

    @Test("plain turns")
    func turns() {
        #expect(DisplayOrientation.from(clockwise: 0, a: Self.one, c: 0, d: Self.one) == (0, false))
        #expect(DisplayOrientation.from(clockwise: 90, a: 0, c: -Self.one, d: 0) == (90, false))
        #expect(DisplayOrientation.from(clockwise: 180, a: -Self.one, c: 0, d: -Self.one) == (180, false))
        #expect(DisplayOrientation.from(clockwise: 270, a: 0, c: Self.one, d: 0) == (270, false))
    }

    @Test("mirrors: hflip, vflip, transpose and its opposite")
    func mirrors() {
        #expect(DisplayOrientation.from(clockwise: 180, a: -Self.one, c: 0, d: Self.one) == (0, true), "hflip")
        #expect(DisplayOrientation.from(clockwise: 0, a: Self.one, c: 0, d: -Self.one) == (180, true), "vflip")
        #expect(DisplayOrientation.from(clockwise: 90, a: 0, c: Self.one, d: 0) == (270, true), "cclock_flip")
        #expect(DisplayOrientation.from(clockwise: 270, a: 0, c: -Self.one, d: 0) == (90, true), "clock_flip")
    }
}
