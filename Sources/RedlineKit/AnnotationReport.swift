import Foundation
import RedlineCore
import TerminalGrid

/// What `redline annotations` prints: the comments of a document without links, widgets and popups,
/// as JSON (docs/annotations-format.md) or as threads for reading.
public enum AnnotationReport {
    /// The annotations a reviewer cares about, in document order: links and form widgets are left out.
    public static func comments(in description: DocumentDescription, page: Int? = nil) -> [Annotation] {
        description.annotations.filter { !$0.subtype.isDocumentStructure && (page == nil || $0.pageIndex == page) }
    }

    public enum Format: Sendable, Equatable {
        case text
        case json
        case summary(CommentSummary.Format)
    }

    /// What `redline annotations` prints: the comments of the threads `filter` keeps, in the format asked for.
    /// JSON and text list every member of those threads in the document's order; a summary groups them by page.
    public static func listing(_ description: DocumentDescription, filter: CommentFilter, format: Format,
                               documentName: String) -> String {
        if case .summary(let summary) = format {
            let threads = CommentSummary.threads(of: description.annotations, filter: filter)
            return CommentSummary.render(threads, as: summary, heading: .init(documentName: documentName, filter: filter))
        }
        // Threads are built only to filter: an unfiltered listing is the comments as they are (and the text
        // listing builds its own threads).
        var kept = comments(in: description)
        if !filter.isEmpty {
            let members = Set(CommentSummary.threads(of: kept, filter: filter).flatMap { $0.members.map(\.id) })
            kept = kept.filter { members.contains($0.id) }
        }
        return format == .json ? json(kept) : text(kept)
    }

    public static func json(_ annotations: [Annotation]) -> String {
        AnnotationJSON.render(annotations)
    }

    /// One block per thread: the annotation, then its replies and state changes, indented.
    public static func text(_ annotations: [Annotation]) -> String {
        var lines: [String] = []
        for thread in AnnotationThreads.build(annotations) {
            lines.append(line(for: thread.root, thread: thread, indent: ""))
            for member in thread.answers {
                lines.append(line(for: member, thread: thread, indent: "    "))
            }
        }
        return lines.isEmpty ? "No annotations." : lines.joined(separator: "\n")
    }

    /// One line a terminal shows as it is: every field from the document passes through `VisibleText`.
    private static func line(for annotation: Annotation, thread: AnnotationThread, indent: String) -> String {
        var parts = [indent + "p\(annotation.pageIndex + 1)", annotation.isStateChange ? "State" : annotation.subtype.label,
                     annotation.author ?? "—", annotation.lastChanged?.shortDisplay ?? "—"]
        if let state = annotation.state, annotation.isStateChange {
            parts.append(state.value)
        } else {
            parts.append(annotation.firstLine.isEmpty ? "—" : annotation.firstLine)
            if let summary = thread.stateSummary(of: annotation.id) { parts.append("[\(summary)]") }
        }
        return VisibleText.of(parts.joined(separator: "  ") + "  id:\(annotation.id)")
    }
}
