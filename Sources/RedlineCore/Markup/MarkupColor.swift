/// The colour of a markup: one of the four the `c` key cycles through, or any other RGB value a markup file names.
public enum MarkupColor: Sendable, Hashable {
    case blue, black, red, purple
    case custom(RGBColor)

    /// The order `c` cycles in.
    public static let cycle: [MarkupColor] = [.blue, .black, .red, .purple]

    public init?(name: String) {
        switch name.lowercased() {
        case "blue": self = .blue
        case "black": self = .black
        case "red": self = .red
        case "purple": self = .purple
        default:
            guard let rgb = RGBColor(hex: name) else { return nil }
            self = .custom(rgb)
        }
    }

    public var name: String {
        switch self {
        case .blue: "blue"
        case .black: "black"
        case .red: "red"
        case .purple: "purple"
        case .custom(let rgb): rgb.hex
        }
    }

    public var rgb: RGBColor {
        switch self {
        case .blue: RGBColor(red: 0x1F, green: 0x4E, blue: 0xD8)
        case .black: RGBColor(red: 0, green: 0, blue: 0)
        case .red: RGBColor(red: 0xD7, green: 0x1F, blue: 0x1F)
        case .purple: RGBColor(red: 0x7B, green: 0x2F, blue: 0xBE)
        case .custom(let rgb): rgb
        }
    }

    /// The next colour in the cycle; a custom colour goes back to the start.
    public var next: MarkupColor {
        guard let index = Self.cycle.firstIndex(of: self) else { return Self.cycle[0] }
        return Self.cycle[(index + 1) % Self.cycle.count]
    }
}
