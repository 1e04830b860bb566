import Foundation
import RedlineCore

/// A shared session's `:w PATH`: a copy of the document holding the annotations as the session shows them (the
/// file's, the server's, the session's changes and replies), with the markup written as annotations under the
/// names it is shared by, or burned into its pages (`:wf`). The file's annotations the session no longer has are
/// removed. Written atomically and checked, as every save.
public struct SharedCopySaver {
    let services: RedlineServices

    public init(services: RedlineServices) { self.services = services }

    /// `annotations`: the session's annotations, markup apart. The markup and the bookmarks are written first (into
    /// a temporary file beside `destination`) when there is markup to burn in or bookmarks changed.
    /// `markupNames`: the name each markup is shared under, where it is not its own.
    @discardableResult
    public func save(annotations: [Annotation], markupNames: [AnnotationID: AnnotationID] = [:],
                     markupDates: [AnnotationID: PDFDate] = [:], edits: DocumentEdits,
                     source: String, readingFrom readPath: String?,
                     password: String?, description: DocumentDescription, bookmarks: BookmarkManager?, to destination: String,
                     markupAs mode: MarkupSaveMode, author: String, progress: (String) -> Void) throws -> WriteOutcome {
        var wanted = annotations
        if mode == .annotations {
            // Markup the session lists already is among `annotations`, as shared; the rest is written as it is now.
            let listed = Set(annotations.map(\.id))
            let now = PDFDate(Date(), timeZone: .current)
            for item in edits.markup.items where item.drawsSomething && !listed.contains(markupNames[item.annotationName] ?? item.annotationName) {
                let page = description.pages.indices.contains(item.pageIndex) ? description.pages[item.pageIndex].displaySize : nil
                var annotation = MarkupAnnotations.annotation(for: item, author: author, at: markupDates[item.annotationName] ?? now,
                                                              onPage: page, measuredBy: services.measurer)
                annotation.id = markupNames[annotation.id] ?? annotation.id
                wanted.append(annotation)
            }
        }
        var from = readPath ?? source
        var staged: String?
        defer { if let staged { try? FileManager.default.removeItem(atPath: staged) } }
        let burnsMarkup = mode == .flatten && !edits.markup.isEmpty
        if burnsMarkup || edits.bookmarks != nil {
            let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
            let temporary = folder + "/.redline-shared-\(UUID().uuidString).pdf"
            staged = temporary
            let first = DocumentEdits(markup: burnsMarkup ? edits.markup : MarkupLayer(), bookmarks: edits.bookmarks)
            try DocumentSaver(services: services).save(first, source: source, readingFrom: readPath, password: password,
                                                       description: description, bookmarks: bookmarks, to: temporary,
                                                       markupAs: .flatten, author: author, progress: progress)
            from = temporary
        }
        progress("writing the annotations")
        let file = description.annotations
        var fileByName: [AnnotationID: Annotation] = [:]
        for annotation in file { fileByName[annotation.id] = annotation }
        let kept = Set(wanted.map(\.id))
        var command = XFDFCommand()
        for annotation in wanted {
            if fileByName[annotation.id] == nil { command.add.append(annotation) } else { command.modify.append(annotation) }
        }
        command.delete = file.filter { !kept.contains($0.id) }.map { .init(pageIndex: $0.pageIndex, id: $0.id) }
        return try XFDFExchange.applying({ _ in command }, to: from, password: password, writingTo: destination,
                                  identity: DocumentIdentity.of(permanentID: description.permanentID,
                                                                path: URL(fileURLWithPath: source).standardizedFileURL.path))
    }
}
