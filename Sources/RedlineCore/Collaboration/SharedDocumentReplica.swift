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
    /// Shared annotations this copy of the PDF cannot hold (a page it lacks, a value its pages cannot place), by
    /// name, with why: left out of `annotations` and reported, never a reason to refuse the rest.
    public private(set) var leftOut: [String: String] = [:]
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
            leftOut = [:]
            for part in snapshotParts {
                annotations += try readable(part.xfdf).add
                for entry in part.entries { known[entry.name] = entry }
            }
            snapshotParts = []
            self.annotations = annotations
            self.entries = known
            self.head = head
        case .event(let event):
            try apply(event)
        case .events(let events):
            for event in events { try apply(event) }
        case .welcome, .ack, .refused, .error, .presence:
            return
        }
    }

    private mutating func apply(_ event: CollabFrame.Event) throws {
        guard event.seq > head else { return }
        let command = try readable(event.xfdf)
        annotations = command.applied(to: annotations)
        for name in command.delete.map(\.id.rawValue) + command.add.map(\.id.rawValue) + command.modify.map(\.id.rawValue) {
            leftOut[name] = nil
        }
        for entry in event.annotations { entries[entry.name] = entry }
        head = event.seq
    }

    public func version(of name: AnnotationID) -> Int? { entries[name.rawValue]?.version }

    /// The command of a frame's XFDF; when some annotation does not fit these pages, every other one still does:
    /// each is read alone and the misfits are left out, named.
    private mutating func readable(_ xfdf: String) throws -> XFDFCommand {
        let bytes = Array(xfdf.utf8)
        if let whole = try? XFDF.command(from: bytes, pages: pages) { return whole }
        let root = try XMLReader.read(bytes).unprefixed(in: XFDF.namespace, keeping: XMLTreeElement.keptExactly)
        var command = XFDFCommand()
        for part in root.elements {
            for element in part.elements {
                let single = SharedXFDF.command(part.name == "annots" ? "add" : part.name, elements: [element.compact])
                do {
                    let read = try XFDF.command(from: Array(single.utf8), pages: pages)
                    command.add += read.add
                    command.modify += read.modify
                    command.delete += read.delete
                } catch {
                    let name = element[attribute: "name"] ?? element.text
                    leftOut[name] = "\(error)"
                }
            }
        }
        return command
    }

    /// What makes a document holding `existing` carry the shared annotations: each shared one added (replacing one
    /// of the same name), and what the server deleted removed; the document's other annotations stay.
    public func command(toward existing: [Annotation]) -> XFDFCommand {
        let deleted = Set(entries.values.filter(\.deleted).map { AnnotationID($0.name) })
        return XFDFCommand(add: annotations,
                           delete: existing.filter { deleted.contains($0.id) }.map { .init(pageIndex: $0.pageIndex, id: $0.id) })
    }
}
