/// Numbers as playctl's reports print them where six decimals would be noise, such as frame rates.
public enum DecimalText {
    /// `value` with at most three decimals (rounded to the nearest thousandth) and no trailing zeros: `30`,
    /// `29.97`, `23.976`. Non-finite and huge values print as Swift's `String(value)`.
    public static func format(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e12 else { return String(value) }
        let thousandths = Int64((value.magnitude * 1000).rounded())
        let whole = (value < 0 && thousandths > 0 ? "-" : "") + String(thousandths / 1000)
        var digits = String(thousandths % 1000)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits.isEmpty ? whole : whole + "." + digits
    }
}
