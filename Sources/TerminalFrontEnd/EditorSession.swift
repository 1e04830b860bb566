import RedlineKit
import CellPictures
import Editor
import Foundation
import NcursesTerminal
import RedlineCore
import TerminalGrid

/// Runs the editor in the terminal: draws the state, reads a key, reduces, performs the effects.
/// Everything it decides is the reducer's; this loop only does the I/O.
public final class EditorSession {
    private var document: OpenedDocument
    private let services: RedlineServices
    /// Nil when no journal could be claimed (the state folder cannot be made, or sixteen editors have this
    /// document open): the editor then says so once, and runs on.
    private let journal: MarkupJournal?
    private let environment: EditorEnvironment
    private let screen: NcursesScreen
    private var pictures: PagePictureMaker
    private var state: EditorState
    private let bookmarkSetup: BookmarkSetup
    /// The document as the editor knows it: qpdf's description with the bookmarks every provider holds.
    private var described: DocumentDescription
    /// Journal writes are spaced out (`journalInterval`): the first change is written at once, later ones
    /// wait here until the interval has passed or the keyboard rests, so a crash loses at most that much typing.
    private var pendingJournal: DocumentEdits?
    private var lastJournalWrite: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    static let journalInterval = Duration.milliseconds(500)

    public init(document: OpenedDocument, screen: NcursesScreen, services: RedlineServices, startPage: Int,
                reviewer: Reviewer, configuration: RedlineConfiguration, keymaps: Keymaps = .standard) {
        self.document = document
        self.services = services
        self.screen = screen
        journal = MarkupJournal.claim(documentPath: document.path)
        environment = EditorEnvironment(measurer: services.measurer)
        pictures = PagePictureMaker(renderer: document.renderer, services: services,
                                    depth: ColorDepth(terminalColors: screen.colors))
        bookmarkSetup = BookmarkSetup(providerNames: configuration.bookmarkProviders)
        described = Self.describe(document, bookmarkSetup)
        let size = screen.size
        state = EditorState(documentPath: document.path, document: described,
                            columns: size.columns, rows: size.rows, pageIndex: startPage, reviewer: reviewer)
        state.bookmarkOrder = configuration.bookmarkOrder
        state.palettes = configuration.palettes
        state.keymaps = keymaps
    }

    private static func describe(_ document: OpenedDocument, _ setup: BookmarkSetup) -> DocumentDescription {
        do {
            return try setup.describe(document.description, path: document.path)
        } catch {
            var description = document.description
            description.bookmarkProblems = ["\(error)"]
            return description
        }
    }

    public func run() {
        switch journal?.contents() {
        case .edits(let unsaved)?: dispatch(.journalFound(unsaved))
        case .unreadable(let kept)?: state.message = "A crash journal could not be read; it was kept as \(kept)"
        case .none?: break
        case nil: state.message = "No crash journal can be kept for this document: unsaved work is lost in a crash"
        }
        var quitting = false
        while !quitting {
            draw()
            guard var input = screen.read(timeoutMilliseconds: journalWait()) else {
                writeJournalIfDue()
                continue
            }
            // Everything already typed is handled before the next frame: a held key never lags behind.
            while true {
                quitting = handle(input)
                guard !quitting, let next = screen.read(timeoutMilliseconds: 0) else { break }
                input = next
            }
            writeJournalIfDue()
        }
    }

    /// How long the next read may wait: for ever, unless a journal write is pending.
    private func journalWait() -> Int32 {
        guard pendingJournal != nil else { return -1 }
        guard let last = lastJournalWrite else { return 0 }
        let remaining = Self.journalInterval - (clock.now - last)
        return remaining <= .zero ? 0 : Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
    }

    private func writeJournalIfDue() {
        guard let edits = pendingJournal, journalWait() == 0 else { return }
        pendingJournal = nil
        lastJournalWrite = clock.now
        guard let journal else { return }
        do {
            try journal.write(edits)
        } catch {
            state.message = "Could not keep a crash journal: \(EditorSession.reason(error, path: journal.journalPath))"
        }
    }

    private func handle(_ input: TerminalInput) -> Bool {
        switch input {
        case .key(let key): return dispatch(.keyPressed(key))
        case .resized(let columns, let rows): return dispatch(.resized(columns: columns, rows: rows))
        case .mouse(let event): return dispatch(.mouse(event))
        case .hangup:
            // Nobody is left to answer a question: keep unsaved work (text being typed included) in the
            // journal at once, and go.
            let journaled = state.journalEdits
            let unsaved = state.isDirty || journaled != state.edits
            if let edits = pendingJournal ?? (unsaved ? journaled : nil), let journal {
                pendingJournal = nil
                try? journal.write(edits)
            }
            return true
        }
    }

    private func draw() {
        let picture = pictures.picture(for: state.scene(environment: environment))
        screen.present(EditorView.draw(state, environment: environment, picture: picture))
    }

    /// Reduces an event and performs its effects, which may lead to further events. True when quitting.
    @discardableResult
    private func dispatch(_ event: EditorEvent) -> Bool {
        var pending = [event]
        var quitting = false
        while !pending.isEmpty {
            let effects = EditorReducer.reduce(&state, pending.removeFirst(), environment: environment)
            for effect in effects {
                switch effect {
                case .quit: quitting = true
                case .discardJournal:
                    pendingJournal = nil
                    journal?.discard()
                case .writeJournal(let edits):
                    pendingJournal = edits
                    writeJournalIfDue()
                case .save(let request):
                    // Show "Saving…" before the work starts.
                    draw()
                    pending.append(.saveFinished(perform(request)))
                }
            }
        }
        return quitting
    }

    private func perform(_ request: SaveRequest) -> SaveOutcome {
        let destination = request.destination
        // Before asking whether to overwrite: a folder or a device is never a place to save.
        if let kind = try? FileManager.default.attributesOfItem(atPath: destination)[.type] as? FileAttributeType, kind != .typeRegular {
            return .failed(path: destination, reason: kind == .typeDirectory ? "it is a folder" : "it is not a regular file")
        }
        if !request.allowOverwrite, FileManager.default.fileExists(atPath: destination) {
            return .destinationExists(path: destination)
        }
        switch document.changeSinceOpening() {
        case .rewritten?:
            return .failed(path: destination, reason: rewrittenReason(request.edits))
        case .replaced? where FilePaths.sameFile(destination, document.path):
            return .failed(path: destination, reason: "another program put a new file at \(document.path) since it was opened; "
                           + "saving over it would destroy that file (:w or :w PATH saves a copy)")
        default:
            break
        }
        do {
            let bookmarks = try bookmarkSetup.manager(for: described, path: document.path)
            try FlattenedSaver(services: services).save(request.edits, source: document.path, readingFrom: document.readPath,
                                                        password: document.password, description: described,
                                                        bookmarks: bookmarks, to: destination)
        } catch {
            return .failed(path: destination, reason: Self.reason(error, path: destination))
        }
        guard request.replacesOriginal else { return .saved(path: destination) }
        do {
            document = try OpenedDocument(path: document.path, password: document.password)
            described = Self.describe(document, bookmarkSetup)
            pictures = PagePictureMaker(renderer: document.renderer, services: services,
                                        depth: ColorDepth(terminalColors: screen.colors))
            return .savedOverOriginal(path: destination, document: described)
        } catch {
            return .failed(path: destination, reason: "saved, but reopening failed: \(error)")
        }
    }

    /// The pages marked up are gone from the file: the markup is kept where a user can still use it, a markup
    /// file beside the document that `redline apply` reads.
    private func rewrittenReason(_ edits: DocumentEdits) -> String {
        let base = document.path.lowercased().hasSuffix(".pdf") ? String(document.path.dropLast(4)) : document.path
        let markupPath = base + "-markup.json"
        let problem = "another program changed \(document.path) since it was opened, so the pages you marked up are gone"
        do {
            try AtomicFileWriter.write(MarkupFile.encode(edits, document: document.path), to: markupPath)
            return problem + "; your markup is in \(markupPath) (redline apply puts it on a document)"
        } catch {
            return problem + "; your markup is kept here and in the crash journal"
        }
    }

    /// The reason alone: the message line names the file already.
    static func reason(_ error: Error, path: String) -> String {
        if case DocumentError.writeFailed(_, let reason) = error { return reason }
        let text = "\(error)"
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
