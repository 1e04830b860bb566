import PDFAssembly
import RedlineCore

/// What the command line needs of a document without drawing it.
public enum MarkupApplication {
    public static func describe(_ path: String, password: String?, readingAnnotations: Bool = true) throws -> DocumentDescription {
        try PDFInspector.describe(path: path, password: password, readingAnnotations: readingAnnotations)
    }
}
