/// The colour of a markup: a named one (the text swatch's blue, black, red and purple; the highlighter's
/// yellow, green and pink), or any other RGB value a markup file or the configuration names.
public enum MarkupColor: Sendable, Hashable {
    case blue, black, red, purple
    case yellow, green, pink
    case custom(RGBColor)

    /// The order `c` cycles text and pen ink in, unless config.toml says otherwise.
    public static let cycle: [MarkupColor] = [.blue, .black, .red, .purple]
    /// The highlighter's, yellow first as every reviewer expects.
    public static let highlighterCycle: [MarkupColor] = [.yellow, .green, .blue, .pink]
    public static let names = "blue, black, red, purple, yellow, green, pink or #RRGGBB"

    public init?(name: String) {
        switch name.lowercased() {
        case "blue": self = .blue
        case "black": self = .black
        case "red": self = .red
        case "purple": self = .purple
        case "yellow": self = .yellow
        case "green": self = .green
        case "pink": self = .pink
        default:
            guard let rgb = RGBColor(hex: name) else { return nil }
            self = .custom(rgb)
        }
    }

    /// The named colour with these components, else a custom one: markup read back (from the server, a file) keeps
    /// its name, and `c` goes on from it in the cycle.
    public init(rgb: RGBColor) {
        self = [MarkupColor.blue, .black, .red, .purple, .yellow, .green, .pink].first { $0.rgb == rgb } ?? .custom(rgb)
    }

    public var name: String {
        switch self {
        case .blue: "blue"
        case .black: "black"
        case .red: "red"
        case .purple: "purple"
        case .yellow: "yellow"
        case .green: "green"
        case .pink: "pink"
        case .custom(let rgb): rgb.hex
        }
    }

    public var rgb: RGBColor {
        switch self {
        case .blue: RGBColor(red: 0x1F, green: 0x4E, blue: 0xD8)
        case .black: RGBColor(red: 0, green: 0, blue: 0)
        case .red: RGBColor(red: 0xD7, green: 0x1F, blue: 0x1F)
        case .purple: RGBColor(red: 0x7B, green: 0x2F, blue: 0xBE)
        case .yellow: RGBColor(red: 0xFF, green: 0xE0, blue: 0x00)
        case .green: RGBColor(red: 0x4C, green: 0xD9, blue: 0x64)
        case .pink: RGBColor(red: 0xFF, green: 0x6E, blue: 0xC7)
        case .custom(let rgb): rgb
        }
    }

    /// The next colour in the cycle; a custom colour goes back to the start.
    public var next: MarkupColor { next(in: Self.cycle) }

    /// The next colour in `palette`; one not in it goes to the palette's first.
    public func next(in palette: [MarkupColor]) -> MarkupColor {
        guard !palette.isEmpty else { return self }
        guard let index = palette.firstIndex(of: self) else { return palette[0] }
        return palette[(index + 1) % palette.count]
    }
}

/// Written as its name (`"red"`, `"#1F6FEB"`), as markup files and config.toml spell it.
extension MarkupColor: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let color = MarkupColor(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(name) is not a colour (\(MarkupColor.names))")
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
