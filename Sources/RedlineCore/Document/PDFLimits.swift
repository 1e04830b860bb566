/// What a number read from a PDF may be (ISO 32000-1, annex C, architectural limits): integers within 32
/// bits, reals finite and within ±3.403 × 10³⁸. A value outside is treated as absent, never trapped on, and
/// what is absent is then read the way the specification (or poppler, which draws the page) reads it.
public enum PDFLimits {
    public static let largestReal = 3.403e38
    /// The largest XMP metadata packet read: more is refused, unread (a stream of a few hundred bytes can
    /// inflate to gigabytes).
    public static let largestXMPPacket = 8 << 20
    public static let integers = Int64(Int32.min)...Int64(Int32.max)

    /// The value if it is a usable real, else nil.
    public static func real(_ value: Double) -> Double? {
        value.isFinite && abs(value) <= largestReal ? value : nil
    }

    /// The value if it is an integer within the limits, else nil.
    public static func integer(_ value: Int64) -> Int? {
        integers.contains(value) ? Int(value) : nil
    }

    /// Annotation flags (/F) are an unsigned 32-bit field; a negative 32-bit value is read as its bit pattern.
    public static func flags(_ value: Int64) -> Int? {
        if (0...Int64(UInt32.max)).contains(value) { return Int(value) }
        if integers.contains(value) { return Int(UInt32(bitPattern: Int32(value))) }
        return nil
    }
}

extension Int {
    /// The nearest Int to a Double, clamped at Int's range; 0 for NaN. Geometry from a document can hold any
    /// real, and a conversion that traps would take the whole program down with it.
    public init(clamping value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2e18 {
            self = Int.max
        } else if value <= -9.2e18 {
            self = Int.min
        } else {
            self = Int(value)
        }
    }
}
