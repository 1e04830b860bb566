import Foundation
import RedlineCore
import TerminalGrid

/// A document's comments written for someone without a PDF reader, as Acrobat's comment summary: each thread with
/// its page, kind, author, date, review state and replies, in page order. Markdown to paste into an issue or a
/// mail, CSV for a spreadsheet, HTML as one page that opens anywhere.
///
/// Every field comes from the document, so each format escapes it for where it lands: Markdown's and HTML's
/// markup characters, CSV's quotes and the formulas spreadsheets would run, and in all three the control and
/// bidirectional characters that would change what the text shows (`VisibleText`).
public enum CommentSummary {
    public typealias Format = CommentSummaryFormat

    /// What the summary is of: the document's name, and the filter that chose its threads (empty for all).
    public struct Heading: Sendable {
        public var documentName: String
        public var filter: CommentFilter

        public init(documentName: String, filter: CommentFilter = CommentFilter()) {
            self.documentName = documentName
            self.filter = filter
        }
    }

    /// The threads of `annotations` the filter keeps, in page order, each with what answers it oldest first.
    public static func threads(of annotations: [Annotation], filter: CommentFilter) -> [AnnotationThread] {
        AnnotationThreads.build(annotations.filter { !$0.subtype.isDocumentStructure })
            .filter(filter.keeps)
            .sorted { ($0.root.pageIndex, $0.root.order) < ($1.root.pageIndex, $1.root.order) }
    }

    public static func render(_ threads: [AnnotationThread], as format: Format, heading: Heading) -> String {
        switch format {
        case .markdown: markdown(threads, heading: heading)
        case .csv: csv(threads)
        case .html: html(threads, heading: heading)
        }
    }

    // MARK: - Shared wording

    /// "3 comments, 5 replies": what the heading counts.
    public static func counts(_ threads: [AnnotationThread]) -> String {
        let replies = threads.reduce(0) { $0 + $1.replies.count }
        return plural(threads.count, "comment") + ", " + plural(replies, "reply", "replies")
    }

    private static func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) " + (count == 1 ? one : many ?? one + "s")
    }

    /// "Accepted by Bob, Marked": the states in force on the thread's comment.
    static func state(of thread: AnnotationThread) -> String {
        var parts: [String] = []
        if let review = thread.currentState(of: thread.root.id, model: AnnotationState.reviewModel), let state = review.state {
            parts.append(state.value + " by " + (review.author ?? "unknown"))
        }
        if thread.currentState(of: thread.root.id, model: AnnotationState.markedModel)?.state == .marked { parts.append("Marked") }
        return parts.joined(separator: ", ")
    }

    private static func when(_ annotation: Annotation) -> String { annotation.lastChanged?.shortDisplay ?? "" }

    private static func visible(_ text: String?) -> String { VisibleText.inDocument(text ?? "") }

    // MARK: - Markdown

    private static func markdown(_ threads: [AnnotationThread], heading: Heading) -> String {
        var lines = ["# Comments on " + markdownText(heading.documentName), ""]
        lines.append(counts(threads) + (heading.filter.isEmpty ? "" : " (filter: " + markdownText(heading.filter.query) + ")"))
        var page: Int?
        for thread in threads {
            let root = thread.root
            if root.pageIndex != page {
                page = root.pageIndex
                lines += ["", "## Page \(root.pageIndex + 1)"]
            }
            var title = "### " + root.subtype.label + " · " + markdownText(root.author ?? "unknown")
            if !when(root).isEmpty { title += " · " + when(root) }
            let state = state(of: thread)
            if !state.isEmpty { title += " · " + markdownText(state) }
            lines += ["", title]
            lines += quoted(root.contents)
            if !thread.answers.isEmpty { lines.append("") }
            for answer in thread.answers {
                if let value = answer.state?.value, answer.isStateChange {
                    lines.append("- *" + markdownText(value) + "* set by " + markdownText(answer.author ?? "unknown")
                                 + (when(answer).isEmpty ? "" : " · " + when(answer)))
                } else {
                    let text = markdownText(answer.contents ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                    // Two spaces end a line where a reply broke it: a hard break in every Markdown renderer.
                    var item = ["- **" + markdownText(answer.author ?? "unknown") + "**" + (when(answer).isEmpty ? "" : " · " + when(answer))
                                + ": " + (text.first.map(String.init) ?? "")]
                    item += text.dropFirst().map { "  " + $0 }
                    lines += item.enumerated().map { $0.offset < item.count - 1 ? $0.element + "  " : $0.element }
                }
            }
        }
        if threads.isEmpty { lines += ["", "No comments."] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The contents as a block quote, line by line; "(no text)" when there is none.
    private static func quoted(_ contents: String?) -> [String] {
        guard let contents, !contents.isEmpty else { return ["", "*(no text)*"] }
        let quoted = markdownText(contents).split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }
        return [""] + quoted.enumerated().map { $0.offset < quoted.count - 1 ? $0.element + "  " : $0.element }
    }

    /// Text that Markdown shows as written: its inline markup characters escaped, `<` and `&` as entities (a
    /// renderer would pass raw HTML through), and what would start a heading, a list or a quote at a line's start.
    static func markdownText(_ text: String) -> String {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line in
            var escaped = ""
            for character in visible(String(line)) {
                switch character {
                case "<": escaped += "&lt;"
                case ">": escaped += "&gt;"
                case "&": escaped += "&amp;"
                case "\\", "`", "*", "_", "[", "]", "~": escaped += "\\" + String(character)
                default: escaped.append(character)
                }
            }
            let body = escaped.drop { $0 == " " }
            let indent = escaped.prefix(escaped.count - body.count)
            // A heading, a quote or a list item at a line's start; a line of only = or - under another is a heading.
            if let first = body.first, first == "#" || (("+-".contains(first)) && (body.count == 1 || body.dropFirst().first == " "))
                || (!body.isEmpty && (body.allSatisfy { $0 == "=" } || body.allSatisfy { $0 == "-" })) {
                return indent + "\\" + body
            }
            let digits = body.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, let after = body.dropFirst(digits.count).first, after == "." || after == ")" {
                return indent + digits + "\\" + body.dropFirst(digits.count)
            }
            return escaped
        }.joined(separator: "\n")
    }

    // MARK: - CSV

    /// RFC 4180's quoting, one row per comment, reply and state change; UTF-8 with a byte order mark, which
    /// spreadsheets need to read accents as written. Rows end in a line feed, which every spreadsheet and csv
    /// reader takes, rather than RFC 4180's carriage return too: printed to a terminal, a carriage return moves the
    /// cursor.
    private static func csv(_ threads: [AnnotationThread]) -> String {
        var rows = [["thread", "id", "in_reply_to", "page", "kind", "author", "date", "state", "contents"]]
        for thread in threads {
            let root = thread.root
            rows.append([root.id.rawValue, root.id.rawValue, "", "\(root.pageIndex + 1)", root.subtype.label, root.author ?? "",
                         root.lastChanged?.iso8601 ?? "", state(of: thread), root.contents ?? ""])
            for answer in thread.answers {
                let kind = answer.isStateChange ? "State" : "Reply"
                rows.append([root.id.rawValue, answer.id.rawValue, answer.inReplyTo?.rawValue ?? "", "\(answer.pageIndex + 1)", kind,
                             answer.author ?? "", answer.lastChanged?.iso8601 ?? "",
                             answer.isStateChange ? answer.state?.value ?? "" : "", answer.isStateChange ? "" : answer.contents ?? ""])
            }
        }
        return "\u{FEFF}" + rows.map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// A field quoted when it holds a comma, a quote or a line break; one a spreadsheet would read as a formula
    /// (`=`, `+`, `-`, `@`, a tab or a return first) starts with an apostrophe, as OWASP advises.
    static func csvField(_ value: String) -> String {
        var field = fittingACell(value, shown: visibleKeepingLines)
        if let first = field.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { field = "'" + field }
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The most a spreadsheet cell holds, in UTF-16 units as Excel counts them; LibreOffice and Google Sheets hold
    /// at least as much.
    static let spreadsheetCellLimit = 32_767

    /// `value` as `shown` shows it, in what a spreadsheet holds in one cell: a longer one is cut after a whole
    /// character of the comment (never inside the escape a hidden one is shown as) and says how many of the
    /// comment's characters are cut, rather than spilling into the cells and rows after it and shifting the table
    /// (the JSON listing and the other summaries keep it whole).
    static func fittingACell(_ value: String, shown: (String) -> String) -> String {
        let whole = shown(value)
        guard whole.utf16.count > spreadsheetCellLimit else { return whole }
        // The note's length, and the apostrophe a formula gets after this.
        let room = spreadsheetCellLimit - 64
        var used = 0
        var end = value.startIndex
        for index in value.indices {
            let width = shown(String(value[index])).utf16.count
            if used + width + 1 > room { break }
            used += width
            end = value.index(after: index)
        }
        return shown(String(value[..<end])) + " … [\(value[end...].count) more characters: a spreadsheet cell holds \(spreadsheetCellLimit)]"
    }

    /// Visible text whose line breaks stay line breaks: a comment of several lines is one field of several lines.
    private static func visibleKeepingLines(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.inDocument(String($0)) }.joined(separator: "\n")
    }

    // MARK: - HTML

    /// One page with its style inline and no script; its content security policy forbids any, should a field's
    /// escaping ever fail.
    private static func html(_ threads: [AnnotationThread], heading: Heading) -> String {
        var body: [String] = []
        var page: Int?
        for thread in threads {
            let root = thread.root
            if root.pageIndex != page {
                if page != nil { body.append("</section>") }
                page = root.pageIndex
                body.append("<section><h2>Page \(root.pageIndex + 1)</h2>")
            }
            let state = state(of: thread)
            body.append("<article class=\"comment\">")
            body.append("<p class=\"meta\"><span class=\"kind\">" + escaped(root.subtype.label) + "</span> <span class=\"author\">"
                        + escaped(root.author ?? "unknown") + "</span> <time>" + escaped(when(root)) + "</time>"
                        + (state.isEmpty ? "" : " <span class=\"state\">" + escaped(state) + "</span>") + "</p>")
            body.append(root.contents.map { $0.isEmpty ? "<p class=\"none\">(no text)</p>" : "<p class=\"text\">" + escaped($0) + "</p>" }
                        ?? "<p class=\"none\">(no text)</p>")
            let answers = thread.answers
            if !answers.isEmpty {
                body.append("<ul>")
                for answer in answers {
                    if let value = answer.state?.value, answer.isStateChange {
                        body.append("<li class=\"change\">" + escaped(value) + " set by " + escaped(answer.author ?? "unknown")
                                    + " <time>" + escaped(when(answer)) + "</time></li>")
                    } else {
                        body.append("<li><span class=\"author\">" + escaped(answer.author ?? "unknown") + "</span> <time>"
                                    + escaped(when(answer)) + "</time><p class=\"text\">" + escaped(answer.contents ?? "") + "</p></li>")
                    }
                }
                body.append("</ul>")
            }
            body.append("</article>")
        }
        if page != nil { body.append("</section>") }
        if threads.isEmpty { body.append("<p class=\"none\">No comments.</p>") }
        let title = "Comments on " + heading.documentName
        let subtitle = counts(threads) + (heading.filter.isEmpty ? "" : " (filter: " + heading.filter.query + ")")
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title))</title>
        <style>
        body { font: 16px/1.45 system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #1d1d1f; background: #fff; }
        h1 { font-size: 1.5em; margin-bottom: .2em; overflow-wrap: anywhere; }
        h2 { font-size: 1.1em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 1.6em; }
        .summary { color: #555; margin-top: 0; }
        .comment { margin: .8em 0; padding: .6em .9em; border-left: 4px solid #c0392b; background: #faf7f5; }
        .meta { margin: 0 0 .3em; color: #444; font-size: .92em; }
        .kind { font-weight: 600; color: #1d1d1f; }
        .state { background: #e8eef7; border-radius: 3px; padding: 0 .4em; }
        .text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .2em 0; }
        .none { color: #888; font-style: italic; margin: .2em 0; }
        ul { list-style: none; margin: .5em 0 0; padding-left: 1em; border-left: 2px solid #ddd; }
        li { margin: .4em 0; }
        .change { color: #555; font-size: .92em; }
        time { color: #666; }
        @media (prefers-color-scheme: dark) {
          body { color: #eee; background: #1b1b1d; } .comment { background: #26262a; } .kind { color: #fff; }
          .meta, .summary, .change, time { color: #bbb; } .state { background: #2f3c52; }
        }
        </style>
        </head>
        <body>
        <h1>\(escaped(title))</h1>
        <p class="summary">\(escaped(subtitle))</p>
        \(body.joined(separator: "\n"))
        </body>
        </html>

        """
    }

    /// Text as HTML shows it: markup characters as entities; control and bidirectional characters as escapes
    /// (an override would reorder the page's text); line breaks kept, for `pre-wrap`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in visibleKeepingLines(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
