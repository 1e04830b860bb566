/// The forms a comment summary is handed on in: Markdown to paste into an issue or a mail, CSV for a spreadsheet,
/// HTML as one page that opens anywhere.
public enum CommentSummaryFormat: String, Sendable, Hashable, CaseIterable {
    case markdown
    case csv
    case html

    /// The format a file name asks for by its extension (`.md`, `.csv`, `.html`, any case), if any.
    public init?(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(".md") || name.hasSuffix(".markdown") {
            self = .markdown
        } else if name.hasSuffix(".csv") {
            self = .csv
        } else if name.hasSuffix(".html") || name.hasSuffix(".htm") {
            self = .html
        } else {
            return nil
        }
    }
}
