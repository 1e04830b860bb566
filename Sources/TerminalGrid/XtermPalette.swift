/// The colours xterm gives the 256 palette numbers: what a terminal shows for a number unless its theme
/// changes the first sixteen. Used where a palette colour must be sent as RGB (direct-colour terminals read
/// every colour number as RGB).
public enum XtermPalette {
    private static let first16: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    public static func rgb(_ index: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8) {
        switch index {
        case 0..<16: return first16[Int(index)]
        case 16..<232:
            let cube = Int(index) - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let grey = UInt8(8 + (Int(index) - 232) * 10)
            return (grey, grey, grey)
        }
    }
}
