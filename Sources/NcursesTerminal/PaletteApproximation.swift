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

    /// One of the eight ANSI colours for a colour behind black words (a highlighter's tint, a filled shape's): by its
    /// hue, which `index8` loses (every channel of a pale colour is on: white, the paper's colour, and the highlight
    /// vanished). Red, magenta and blue, under which black reads below WCAG's 4.5:1 in xterm's palette, become the
    /// nearest that reads: yellow for the warm two, cyan for blue; a grey (no hue) the light grey. Always one.
    static func paleHue8(red: UInt8, green: UInt8, blue: UInt8) -> UInt8? {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let (lowest, highest) = (min(r, g, b), max(r, g, b))
        // Behind black words any tint takes a hue black reads on (a full blue or red tint too: blue and red
        // backgrounds hold black words at 2.2:1 and 3.6:1), and a grey the paper's light grey.
        guard highest - lowest >= 24 else { return 7 }
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
