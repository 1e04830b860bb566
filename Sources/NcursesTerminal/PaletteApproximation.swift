/// The nearest palette colour, for a terminal that cannot take RGB directly.
enum PaletteApproximation {
    static func index256(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let (r, g, b) = (level(red), level(green), level(blue))
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    /// One of the eight ANSI colours: each channel on or off.
    static func index8(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        (red >= 128 ? 1 : 0) | (green >= 128 ? 2 : 0) | (blue >= 128 ? 4 : 0)
    }
}
