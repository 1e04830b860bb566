/// Integers as decimal text without `String(format:)`: Foundation's formatting parses its format string and boxes
/// its arguments on every call, and a list of 100,000 annotations formats dates and numbers millions of times.
public enum DecimalText {
    /// `value` in at least `width` characters, zeros after the sign, as `%0*d` writes it.
    public static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0)))
        return value < 0 ? "-" + zeros + digits : zeros + digits
    }
}
