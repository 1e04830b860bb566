/// A shared document's annotations as one client knows them: the server's snapshot, then its events in order,
/// each applied with `XFDFCommand.applied(to:)` (what `redline xfdf import` applies a file with), read against
/// the pages of the client's copy of the PDF.
public struct SharedDocumentReplica: Sendable {
    public let pages: [PageGeometry]
    /// The last event applied.
    public private(set) var head = 0
    /// Every annotation the server has told of, deleted ones included, with its version and author.
    public private(set) var entries: [String: CollabFrame.Entry] = [:]
    /// The live annotations.
    public private(set) var annotations: [Annotation] = []
    private var snapshotParts: [(xfdf: String, entries: [CollabFrame.Entry])] = []

    public init(pages: [PageGeometry]) { self.pages = pages }

    /// Applies a frame; snapshot parts are held until the last one. Frames that are not about the document's
    /// annotations (acks, refusals, errors) change nothing. Throws when an annotation does not fit the pages.
    public mutating func apply(_ frame: CollabFrame.Server) throws {
        switch frame {
        case .snapshot(let head, let xfdf, let partEntries, let last):
            snapshotParts.append((xfdf, partEntries))
            guard last else { return }
            var annotations: [Annotation] = []
            var known: [String: CollabFrame.Entry] = [:]
            for part in snapshotParts {
                annotations += try XFDF.command(from: Array(part.xfdf.utf8), pages: pages).add
                for entry in part.entries { known[entry.name] = entry }
            }
            snapshotParts = []
            self.annotations = annotations
            self.entries = known
            self.head = head
        case .event(let event):
            guard event.seq > head else { return }
            let command = try XFDF.command(from: Array(event.xfdf.utf8), pages: pages)
            annotations = command.applied(to: annotations)
            for entry in event.annotations { entries[entry.name] = entry }
            head = event.seq
        case .welcome, .ack, .refused, .error:
            return
        }
    }

    public func version(of name: AnnotationID) -> Int? { entries[name.rawValue]?.version }

    /// What makes a document holding `existing` carry the shared annotations: each shared one added (replacing one
    /// of the same name), and what the server deleted removed; the document's other annotations stay.
    public func command(toward existing: [Annotation]) -> XFDFCommand {
        let deleted = Set(entries.values.filter(\.deleted).map { AnnotationID($0.name) })
        return XFDFCommand(add: annotations,
                           delete: existing.filter { deleted.contains($0.id) }.map { .init(pageIndex: $0.pageIndex, id: $0.id) })
    }
}
