/// Integers as decimal text without `String(format:)`: Foundation's formatting parses its format string and boxes
/// its arguments on every call, and a list of 100,000 annotations formats dates and numbers millions of times.
public enum DecimalText {
    /// `value` in at least `width` characters, zeros after the sign, as `%0*d` writes it.
    public static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0)))
        return value < 0 ? "-" + zeros + digits : zeros + digits
    }

    /// The same digits appended to bytes being written.
    public static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let digits = String(value.magnitude).utf8  // a small string: nothing allocated
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, width - digits.count - (value < 0 ? 1 : 0))))
        bytes.append(contentsOf: digits)
    }
}
