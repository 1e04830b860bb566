import RedlineCore
import TerminalGrid

/// `redline annotations --json` written straight into bytes. Foundation's `JSONEncoder` walks every value through
/// boxed containers and a key dictionary: for a document of 100,000 annotations it was a third of the listing's
/// time. The text is the one the encoder wrote (pretty, sorted keys, slashes as they are) followed by
/// `VisibleText.json`, so scripts reading it see no change; `AnnotationJSONTests` compares the two on hostile
/// values.
enum AnnotationJSON {
    static func render(_ annotations: [Annotation]) -> String {
        guard !annotations.isEmpty else { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(annotations.count * 420)
        out.append(contentsOf: "[\n".utf8)
        for (index, annotation) in annotations.enumerated() {
            write(annotation, into: &out)
            out.append(contentsOf: (index == annotations.count - 1 ? "\n" : ",\n").utf8)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// One object, its keys in the encoder's sorted order.
    private static func write(_ annotation: Annotation, into out: inout [UInt8]) {
        out.append(contentsOf: "  {\n".utf8)
        func key(_ name: String) {
            out.append(contentsOf: "    \"".utf8)
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: "\" : ".utf8)
        }
        func text(_ name: String, _ value: String?, last: Bool = false) {
            key(name)
            if let value { JSONText.string(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
            out.append(contentsOf: (last ? "\n" : ",\n").utf8)
        }
        text("author", annotation.author)
        text("contents", annotation.contents)
        text("created", annotation.created?.iso8601)
        text("id", annotation.id.rawValue)
        text("inReplyTo", annotation.inReplyTo?.rawValue)
        text("modified", annotation.modified?.iso8601)
        key("page")
        out.append(contentsOf: String(annotation.pageIndex + 1).utf8)
        out.append(contentsOf: ",\n".utf8)
        key("rect")
        out.append(contentsOf: "[\n".utf8)
        let corners = annotation.exportedRect
        for (index, value) in corners.enumerated() {
            out.append(contentsOf: "      ".utf8)
            JSONText.number(value, into: &out)
            out.append(contentsOf: (index == corners.count - 1 ? "\n" : ",\n").utf8)
        }
        out.append(contentsOf: "    ],\n".utf8)
        text("replyType", annotation.replyType?.rawValue)
        text("state", annotation.state?.value.lowercased())
        text("stateModel", annotation.state?.model.lowercased())
        text("type", annotation.subtype.rawValue, last: true)
        out.append(contentsOf: "  }".utf8)
    }
}

/// JSON values as bytes, escaped as Foundation's encoders escape them and then as `VisibleText.json` does.
enum JSONText {
    static func string(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most values are plain ASCII: copied as they are.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: value.utf8)
        } else {
            for scalar in value.unicodeScalars { append(scalar, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func append(_ scalar: Unicode.Scalar, into out: inout [UInt8]) {
        switch scalar.value {
        case 0x22: out.append(contentsOf: #"\""#.utf8)
        case 0x5C: out.append(contentsOf: #"\\"#.utf8)
        case 0x08: out.append(contentsOf: #"\b"#.utf8)
        case 0x0C: out.append(contentsOf: #"\f"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        case 0x00...0x1F: out.append(contentsOf: VisibleText.jsonEscape(scalar).lowercased().utf8)
        default:
            if scalar.value >= 0x7F && VisibleText.isHidden(scalar) {
                out.append(contentsOf: VisibleText.jsonEscape(scalar).utf8)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// As the encoder writes a `Double`: its shortest exact text, without a trailing `.0`. JSON has no
    /// infinity or NaN; a rectangle read from a file is finite, and null says "no number" were it not.
    static func number(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else { return out.append(contentsOf: "null".utf8) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }
}
