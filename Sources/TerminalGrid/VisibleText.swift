/// Text from a document or a file name, made safe to show in a terminal. A PDF can put anything into an
/// author, a comment or a bookmark name, including the control sequences that retitle a window, clear the
/// screen or move the cursor. Control characters (C0, DEL, C1) and the invisible format characters (the
/// bidirectional overrides that reorder what follows them, zero-width spaces and joiners, which terminals
/// draw in no cell or in one, so columns slip) are shown as escapes instead: `\x1B`, `\x9B`, `\u{202E}`.
public enum VisibleText {
    public static func of(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                shown.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// JSON that keeps every value exact but carries no raw control character a terminal would act on:
    /// C1, DEL and the bidirectional overrides are written as `\u` escapes (JSON encoders already escape C0).
    /// Outside strings JSON is plain ASCII, so the escapes only ever land inside strings.
    public static func json(_ json: String) -> String {
        // C0 is left alone: the encoders escape it inside strings, and between tokens it is layout.
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && isHidden(scalar) }
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var shown = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                shown.append(contentsOf: jsonEscape(scalar).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// `\\uXXXX` for a scalar JSON must see escaped; one beyond the Basic Multilingual Plane (a language tag,
    /// U+E0001, is a format character) as its UTF-16 surrogate pair, as JSON spells it.
    public static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
        guard scalar.value > 0xFFFF else { return "\\u" + hex(scalar.value, digits: 4) }
        let offset = scalar.value - 0x10000
        return "\\u" + hex(0xD800 + (offset >> 10), digits: 4) + "\\u" + hex(0xDC00 + (offset & 0x3FF), digits: 4)
    }

    /// A message as one line of at most `limit` characters: visible, with the middle of anything longer
    /// left out, so a ten-megabyte name in a message costs one line, not a screenful.
    public static func line(_ text: String, limit: Int = 400) -> String {
        excerpt(of(text), limit: limit)
    }

    /// At most `limit` characters of `text`: its start and end, with what lies between counted.
    public static func excerpt(_ text: String, limit: Int) -> String {
        let count = text.count
        guard count > limit, limit > 8 else { return text }
        let head = text.prefix(limit * 2 / 3), tail = text.suffix(limit / 3 - 1)
        return head + "…(\(count - head.count - tail.count) more characters)…" + tail
    }

    /// Text for a document handed on (a comment summary): what would act or reorder is escaped, C0, DEL, C1 and the
    /// bidirectional controls, but the joiners a script or an emoji sequence is written with stay (a Persian word
    /// with its zero-width non-joiner, a family emoji with its zero-width joiners).
    public static func inDocument(_ text: String) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            isHidden(scalar) && !(0x200B...0x200D).contains(scalar.value) && scalar.value != 0x2060 && scalar.value != 0xFEFF
        }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escaped(scalar) { shown.append(contentsOf: escape(scalar).unicodeScalars) } else { shown.append(scalar) }
        }
        return String(shown)
    }

    /// Characters a terminal acts on, or shows as nothing, instead of showing.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: scalar.properties.generalCategory == .format
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        scalar.value <= 0xFF ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension VisibleText {
    /// Text for the clipboard, where a paste into a shell would act on what it holds: control characters (C0 but
    /// tab and line feed, DEL, C1, ESC among them) and the invisible format characters are dropped; so are tabs and
    /// line breaks when `multiline` is false (a link's address has none, and a line feed would run what precedes it).
    public static func forClipboard(_ text: String, multiline: Bool) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\t" {
                if multiline { kept.append(scalar) }
            } else if !isHidden(scalar) {
                kept.append(scalar)
            }
        }
        return String(kept)
    }
}
