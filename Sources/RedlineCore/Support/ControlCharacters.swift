/// Control characters in text a user gives: a NUL cuts text short in a page, an ESC reaches the terminals that show it.
public enum ControlCharacters {
    /// The first control character in `text` as `U+001B`, nil when there is none; `allowingLineBreaks` lets line
    /// ends and tabs through (a comment may have several lines).
    public static func first(in text: String, allowingLineBreaks: Bool = false) -> String? {
        let allowed: Set<UInt32> = allowingLineBreaks ? [0x09, 0x0A, 0x0D] : []
        guard let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control && !allowed.contains($0.value) }) else {
            return nil
        }
        let code = String(control.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    }
}
