import PDFAssembly
import RedlineCore

/// What the command line needs of a document without drawing it.
public enum MarkupApplication {
    /// `keepingForSave`: the save this command makes next reads the file from this reading.
    /// `readingOutline`: the outline's folder of bookmarks, for bookmarks kept there (`BookmarkSetup.inOutline`).
    public static func describe(_ path: String, password: String?, readingAnnotations: Bool = true,
                                keepingForSave: Bool = false, readingOutline: Bool = false) throws -> DocumentDescription {
        try PDFInspector.describe(path: path, password: password, readingAnnotations: readingAnnotations, keepingForSave: keepingForSave,
                                  readingOutline: readingOutline)
    }
}
