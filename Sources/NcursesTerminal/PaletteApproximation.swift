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

    /// One of the eight ANSI colours for a pale colour behind dark text (a highlighter's tint): by its hue, which
    /// `index8` loses (every channel of a pale colour is on: white, the paper's colour, and the highlight vanished).
    /// Red, magenta and blue, under which black text reads below WCAG's 4.5:1 in xterm's palette, become the
    /// nearest that reads: yellow for the warm two, cyan for blue. Nil for a colour that is not pale or has no hue:
    /// `index8` serves.
    static func paleHue8(red: UInt8, green: UInt8, blue: UInt8) -> UInt8? {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let (lowest, highest) = (min(r, g, b), max(r, g, b))
        let light = (r * 54 + g * 183 + b * 19) >> 8
        guard light >= 160, highest - lowest >= 24 else { return nil }
        // A channel is on when it stands in the upper half of the colour's own spread.
        let spread = highest - lowest
        let hue = UInt8(((r - lowest) * 2 >= spread ? 1 : 0) | ((g - lowest) * 2 >= spread ? 2 : 0) | ((b - lowest) * 2 >= spread ? 4 : 0))
        switch hue {
        case 1, 5: return 3
        case 4: return 6
        default: return hue
        }
    }
}
