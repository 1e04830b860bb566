/// An annotation's /Subtype, without the slash. Any name a file carries is kept; the ones the
/// specification defines get a label for the list.
public struct AnnotationSubtype: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let text: Self = "Text"
    public static let link: Self = "Link"
    public static let widget: Self = "Widget"
    public static let freeText: Self = "FreeText"
    public static let ink: Self = "Ink"
    public static let highlight: Self = "Highlight"
    public static let underline: Self = "Underline"
    public static let strikeOut: Self = "StrikeOut"
    public static let squiggly: Self = "Squiggly"
    public static let caret: Self = "Caret"
    public static let square: Self = "Square"
    public static let circle: Self = "Circle"
    public static let line: Self = "Line"
    public static let polygon: Self = "Polygon"
    public static let polyLine: Self = "PolyLine"
    public static let stamp: Self = "Stamp"

    /// Links and form fields are parts of the document rather than comments on it: left out of lists unless asked.
    public var isDocumentStructure: Bool { self == .link || self == .widget }

    /// Markup annotations (ISO 32000-1 table 170) carry an author and can be answered; links, widgets,
    /// popups and media cannot.
    public var isMarkup: Bool {
        ["Text", "FreeText", "Line", "Square", "Circle", "Polygon", "PolyLine", "Highlight", "Underline", "Squiggly",
         "StrikeOut", "Stamp", "Caret", "Ink", "FileAttachment", "Sound", "Redact", "Projection"].contains(rawValue)
    }

    /// The name a reviewer knows it by.
    public var label: String {
        switch rawValue {
        case "Text": "Note"
        case "FreeText": "Text box"
        case "StrikeOut": "Strikeout"
        case "FileAttachment": "Attachment"
        case "PolyLine": "Polyline"
        case "PrinterMark": "Printer mark"
        case "TrapNet": "Trap network"
        case "3D": "3D model"
        case "RichMedia": "Rich media"
        case "": "Unknown"
        default: rawValue
        }
    }
}
