/// How deep a TOML text nests, found before the parser sees it: toml++ (under TOMLKit) recurses once per
/// dotted key part, table header part and nested array or inline table, and 170,000 parts overflow its stack.
/// Real configurations are a level or two deep.
enum TOMLNesting {
    static let deepest = 64

    /// The first line where dotted keys and brackets nest deeper than `limit`, or nil.
    static func lineNestedDeeperThan(_ limit: Int, in text: String) -> Int? {
        var line = 1
        var brackets = 0
        var dots = 0
        var inKey = true
        var quote: (character: Unicode.Scalar, triple: Bool)?
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func triple(_ character: Unicode.Scalar) -> Bool {
            index + 2 < scalars.count && scalars[index + 1] == character && scalars[index + 2] == character
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" { line += 1 }
            if let open = quote {
                if scalar == "\\", open.character == "\"" {
                    index += 2
                    continue
                }
                if scalar == open.character, !open.triple || triple(scalar) {
                    index += open.triple ? 3 : 1
                    quote = nil
                    continue
                }
                if scalar == "\n", !open.triple { quote = nil }
                index += 1
                continue
            }
            switch scalar {
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
                continue
            case "\"", "'":
                quote = (scalar, triple(scalar))
                index += quote!.triple ? 3 : 1
                continue
            case "[", "{": brackets += 1
            case "]", "}": brackets = max(0, brackets - 1)
            case ".": if inKey || brackets > 0 { dots += 1 }
            case "=": inKey = false; dots = 0
            case "\n", ",":
                dots = 0
                inKey = brackets == 0 || scalar == ","
            default: break
            }
            if brackets + dots > limit { return line }
            index += 1
        }
        return nil
    }
}
