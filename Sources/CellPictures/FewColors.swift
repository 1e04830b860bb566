/// Folds a cell's RGB colour onto the eight or sixteen ANSI colours so that a page stays readable: greys
/// go by lightness (text that antialiasing made grey stays dark against the paper), colours by hue (red
/// markup stays red, a yellow highlight yellow).
enum FewColors {
    static func index(red: UInt8, green: UInt8, blue: UInt8, sixteen: Bool) -> UInt8 {
        let r = Int(red), g = Int(green), b = Int(blue)
        let light = (r * 54 + g * 183 + b * 19) >> 8
        let spread = max(r, g, b) - min(r, g, b)
        if spread < 72 {
            if !sixteen { return light >= 208 ? 7 : 0 }
            return light >= 232 ? 15 : light >= 192 ? 7 : light >= 112 ? 8 : 0
        }
        // A hue: each channel on when it is near the strongest one.
        let strongest = max(r, g, b)
        let hue = UInt8((r * 2 >= strongest + 40 ? 1 : 0) | (g * 2 >= strongest + 40 ? 2 : 0) | (b * 2 >= strongest + 40 ? 4 : 0))
        guard sixteen else { return hue }
        return strongest >= 224 ? hue + 8 : hue
    }
}
