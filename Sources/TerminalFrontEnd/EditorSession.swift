import CellPictures
import Editor
import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid

/// Runs the editor in a terminal: one serial loop that takes terminal input, timers and the messages of work
/// running off the loop (a save) as events, stamps each, reduces it, performs the effects and draws the
/// frame. Everything it decides is the reducer's; this loop only does the I/O.
/// Its state is touched on the loop's thread only: other threads reach it through the inbox, whose messages the
/// loop runs.
public final class EditorSession: @unchecked Sendable {
    private var document: OpenedDocument
    private let services: RedlineServices
    /// Nil when no journal could be claimed (the state folder cannot be made, or sixteen editors have this
    /// document open): the editor then says so once, and runs on.
    private let journal: MarkupJournal?
    /// Why no journal could be claimed, when the folder is the reason.
    private let journalProblem: String?
    private let environment: EditorEnvironment
    private let screen: any TerminalScreen
    private var pictures: PagePictureMaker
    public private(set) var state: EditorState
    private let bookmarkSetup: BookmarkSetup
    private let saveStrategy: SaveStrategy
    /// The document as the editor knows it: qpdf's description with the bookmarks every provider holds.
    private var described: DocumentDescription
    private var debounce = JournalDebounce()
    /// A shared session's link to the server, and when the changes waiting are to be sent.
    private let sharedLaunch: SharedLaunch?
    private var link: SharedLink?
    private var sharedFlushAt: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    private let start = ContinuousClock.now
    private let inbox = EventInbox()
    /// Called on the save's own thread before it starts: lets a test hold a save while it presses keys.
    private let beforeSaving: @Sendable () -> Void
    /// Pages are rendered off the loop.
    private let rendering: PageRendering
    private var quitting = false
    /// Where the reading place is kept (nil: nowhere, as in tests and benches), and whether to open at its page
    /// (false: at the page asked for, its zoom, view and marks kept).
    private let places: ReadingPlaces?
    private let restoresPlace: Bool
    /// The files saves of this session wrote, as they were just after.
    private var written: [String: FileIdentity] = [:]
    /// Every thread the session starts, waited for before it returns.
    private let threads = BackgroundThreads()
    /// Saves on threads of their own: quitting waits for a save, never for a render.
    private let saves = BackgroundThreads()
    /// A render or search poppler was still inside when the editor quit: the process must end without running
    /// poppler's global destructors under it (`EditorLauncher`).
    public private(set) var leftWorkRunning = false
    /// The search running off the loop, if any.
    private var searching: SearchJob?
    /// A poppler reading of the document for the loop's own thread (the renderer's is busy on the render
    /// thread): the outline and each page's links. Nil when the document cannot be read twice.
    private var navigator: (any DocumentNavigating & PageTextReading)?
    private let openCommand: [String]?
    /// `--events` and the callback commands: told of every activation and refusal, off the loop.
    private let listeners: InteractionListeners?
    /// How the page reaches the terminal, and in a pixel mode what writes its images.
    private let graphics: GraphicsChoice
    private var images: (any PageImages)?
    /// The frame presented last and the scene its images showed, for a pixel mode's next frame.
    private var presented: CellGrid?
    private var imageScene: PageScene?

    public init(document: OpenedDocument, screen: any TerminalScreen, services: RedlineServices, startPage: Int,
                reviewer: Reviewer, configuration: RedlineConfiguration, keymaps: Keymaps = .standard,
                interactions: Interactions = Interactions(), listeners: InteractionListeners? = nil,
                graphics: GraphicsChoice = GraphicsChoice(mode: .symbols),
                shared: SharedLaunch? = nil,
                places: ReadingPlaces? = nil, restoresPlace: Bool = false,
                journalEnvironment: [String: String] = ProcessInfo.processInfo.environment,
                beforeSaving: @escaping @Sendable () -> Void = {},
                beforeRendering: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.document = document
        self.places = places
        self.restoresPlace = restoresPlace
        rendering = PageRendering(threads: threads, beforeRendering: beforeRendering)
        self.services = services
        self.screen = screen
        self.beforeSaving = beforeSaving
        journal = MarkupJournal.claim(documentPath: document.path, environment: journalEnvironment)
        journalProblem = journal == nil ? MarkupJournal.folderProblem(environment: journalEnvironment) : nil
        self.graphics = graphics
        images = PageImagesFactory.make(for: graphics, colors: screen.colors)
        // In a pixel mode the page is rendered at the terminal's own cell size, a pixel for a pixel.
        let cellPixels = images != nil ? graphics.cellPixels.map { CellPixelSize(width: $0.width, height: $0.height) } : nil
        environment = EditorEnvironment(measurer: services.measurer, cellPixels: cellPixels ?? .standard, interactions: interactions)
        self.listeners = listeners
        interactions.reportsActivations = listeners?.isListening ?? false
        pictures = PagePictureMaker(renderer: document.renderer, services: services,
                                    depth: ColorDepth(terminalColors: screen.colors))
        pictures.makesCells = images == nil
        bookmarkSetup = BookmarkSetup(configuration)
        saveStrategy = configuration.saveStrategy
        described = Self.describe(document, bookmarkSetup)
        let size = screen.size
        state = EditorState(documentPath: document.path, document: described,
                            columns: size.columns, rows: size.rows, pageIndex: startPage, reviewer: reviewer)
        state.bookmarkOrder = configuration.bookmarkOrder
        state.palettes = configuration.palettes
        state.saveMode = configuration.saveMode
        state.chrome.recolor = configuration.recolor
        state.view.recolors = configuration.recolors
        state.keymaps = keymaps
        openCommand = configuration.openCommand
        sharedLaunch = shared
        if let shared {
            EditorReducer.startSharing(&state, document: shared.document)
            state.copiesFolder = shared.copiesFolder
        }
        state.chrome.opensLinks = configuration.openCommand != nil
        navigator = try? document.independentReader()
        // A finished render wakes the loop, which draws the page with it.
        rendering.onFinished = { [inbox] in inbox.post {} }
        // Said on the page, never over a prompt being typed.
        listeners?.failed = { [inbox] message in
            inbox.post { [weak self] in if self?.state.focus == .page { self?.state.message = message } }
        }
        // Code embedding the editor asks for interactions through its loop.
        interactions.deliver = { [inbox] request in inbox.post { [weak self] in self?.dispatch(.interactionRequested(request)) } }
    }

    /// A path with the home folder written `~`, so a message line has room for the rest of it.
    static func shortened(_ path: String) -> String {
        let home = NSHomeDirectory()
        guard home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    static func describe(_ document: OpenedDocument, _ setup: BookmarkSetup) -> DocumentDescription {
        do {
            return try setup.describe(document.description, path: document.path)
        } catch {
            var description = document.description
            description.bookmarkProblems = ["\(error)"]
            return description
        }
    }

    public func run() {
        switch journal?.contents(bookmarkBase: described.bookmarks, pageSizes: described.pageSizes, measuredBy: environment.measurer) {
        case .edits(let unsaved)?: dispatch(.journalFound(unsaved, shared: journal?.shared() ?? SharedJournal()))
        case .unreadable(let kept)?:
            // The path last but short: a narrow terminal cuts the end of the line.
            state.message = "Crash journal unreadable, kept: \(Self.shortened(kept))"
        case .notYours(let reason)?:
            state.message = "A crash journal not written by you was ignored (\(reason)): \(Self.shortened(journal?.journalPath ?? ""))"
        case .none?: break
        case nil:
            // What is wrong and the remedy first: an 80-column line cut the hint off the end.
            state.message = "No crash journal: " + (journalProblem ?? "sixteen editors already have this document open")
                + "; unsaved work is lost in a crash"
        }
        if state.message == nil, let notice = graphics.notice { state.message = notice }
        // A callback command that exits without reading its input must not end the editor with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        if var place = places?.place(permanentID: described.permanentID, path: document.path) {
            if !restoresPlace {
                (place.pageIndex, place.scrollX, place.scrollY) = (state.pageIndex, 0, 0)
            }
            dispatch(.placeRestored(place))
        }
        defer {
            // The place is kept whatever ends the session; failing to keep it costs the next opening its page only.
            try? places?.remember(state.readingPlace, permanentID: described.permanentID, path: document.path)
            // A save finishes (its file whole, or untouched). A render or search is given a second: poppler cannot
            // be stopped inside a page, and q must end the editor at once however slow the page.
            searching?.stop()
            rendering.close()
            saves.waitForAll(seconds: 600)
            leftWorkRunning = !threads.waitForAll(seconds: 1)
            environment.interactions.deliver = nil
            listeners?.flush()
            // Images are the terminal's, not the screen's: they would outlive the editor.
            if let images { screen.writeImages(images.farewell()) }
            link?.close()
        }
        dispatch(.outlineRead(navigator?.outline() ?? []))
        startLink()
        while !quitting {
            draw()
            let inputReady = screen.waitForInput(timeoutMilliseconds: journalWait(), wakeDescriptor: inbox.wakeDescriptor)
            for message in inbox.take() where !quitting { message() }
            // Everything already typed is handled before the next frame: a held key never lags behind.
            if inputReady {
                while !quitting, let input = screen.read(timeoutMilliseconds: 0) { handle(input) }
            }
            writeJournalIfDue()
            flushSharedIfDue()
        }
    }

    /// How long the loop may sleep: for ever, unless a journal write or a shared session's changes are due.
    private func journalWait() -> Int32 {
        let now = clock.now
        let waits = [debounce.wait(at: now), sharedFlushAt.map { max(.zero, $0 - now) }].compactMap { $0 }
        guard let wait = waits.min() else { return -1 }
        let (seconds, attoseconds) = wait.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// A shared session's link: its lines come back as events through the inbox.
    private func startLink() {
        guard let sharedLaunch else { return }
        let inbox = inbox
        do {
            link = try SharedLink(command: sharedLaunch.linkCommand + [sharedLaunch.document]) { event in
                inbox.post { [weak self] in self?.dispatch(.shared(event)) }
            }
        } catch {
            dispatch(.shared(.link(.offline(reason: "the link could not start: \(error)", retryIn: nil))))
        }
    }

    private func flushSharedIfDue() {
        guard let due = sharedFlushAt, clock.now >= due else { return }
        sharedFlushAt = nil
        dispatch(.shared(.flushDue))
    }

    private func writeJournalIfDue(evenIfEarly: Bool = false) {
        guard debounce.pending, evenIfEarly || debounce.isDue(at: clock.now) else { return }
        debounce.wrote(at: clock.now)
        guard let journal else { return }
        if state.journalIsUnneeded {
            journal.discard()
            return
        }
        do {
            try journal.write(state.journalOperations, shared: state.journalShared)
        } catch {
            state.message = "Could not keep a crash journal: \(EditorSession.reason(error, path: journal.journalPath))"
        }
    }

    private func handle(_ input: TerminalInput) {
        switch input {
        case .key(let key): dispatch(.keyPressed(key))
        case .resized(let columns, let rows): dispatch(.resized(columns: columns, rows: rows))
        case .mouse(let event): dispatch(.mouse(event))
        case .paste(let text): dispatch(.pasted(text))
        case .imageMissing(let id):
            // The next frame sends it again.
            images?.imageMissing(id)
        case .hangup:
            // Nobody is left to answer a question: keep unsaved work (text being typed included) in the
            // journal at once, and go.
            debounce.changed()
            writeJournalIfDue(evenIfEarly: true)
            quitting = true
        }
    }

    /// Draws the frame. A page not rendered yet is rendered off the loop: a quick one is waited for (50 ms)
    /// so turning pages does not flash; during a slow one the last picture stays, marked as being replaced,
    /// and keys go on working until the page is done.
    private func draw() {
        readLinksIfNeeded()
        collectRasters()
        if state.showsTextView {
            // The text view is drawn from the page's words: nothing to render.
            present(EditorView.draw(state, environment: environment, picture: nil), scene: nil)
            readAhead()
            return
        }
        let scene = state.scene(environment: environment)
        if let missing = pictures.missingRaster(for: scene) {
            // Waited for once: keys pressed during a long render are drawn at once.
            if rendering.request(missing, from: pictures.renderer) { rendering.waitBriefly(milliseconds: 50) }
            collectRasters()
        }
        guard pictures.missingRaster(for: scene) != nil else {
            let picture = images?.cells(for: scene) ?? pictures.picture(for: scene)
            present(EditorView.draw(state, environment: environment, picture: picture), scene: scene)
            readAhead()
            return
        }
        // The last picture stays while the page renders: in a pixel mode, the last scene's images.
        let stale = images != nil ? imageScene.map { images!.cells(for: $0) }
            : pictures.lastPicture(columns: scene.viewport.columns, rows: scene.viewport.rows)
        present(EditorView.draw(state, environment: environment, picture: stale, rendering: scene.pageIndex), scene: imageScene)
    }

    /// Shows a frame, then, in a pixel mode, the images its page area shows.
    private func present(_ grid: CellGrid, scene: PageScene?) {
        guard let images else {
            screen.present(grid)
            return
        }
        // Leaving the picture (for the text view): a sixel or iTerm2 image stays until its cells are written, and
        // blank cells are not; the whole screen is drawn again.
        if scene == nil, imageScene != nil { screen.invalidate() }
        screen.present(grid)
        let area = state.layout.pageArea
        screen.writeImages(images.frame(scene: scene, pictures: pictures, area: area, grid: grid,
                                        previous: presented, fullRepaint: screen.lastFrameWasFull))
        if images.paintsBelowArea { screen.redraw(rows: area.maxRow..<(area.maxRow + 1)) }
        presented = grid
        imageScene = scene
    }

    /// A page's links and words are read the first time it is shown: clicks, `f`, `v` and smart zoom need them.
    private func readLinksIfNeeded() {
        let page = state.pageIndex
        if state.navigation.needsLinks(onPage: page) {
            dispatch(.linksRead(pageIndex: page, links: navigator?.links(onPage: page) ?? []))
        }
        if state.navigation.needsWords(onPage: page) {
            dispatch(.wordsRead(pageIndex: page, words: navigator?.words(onPage: page) ?? []))
        }
    }

    private func collectRasters() {
        for finished in rendering.takeFinished() where finished.renderer == ObjectIdentifier(pictures.renderer) {
            if let (links, words) = finished.text {
                let page = finished.key.page
                if state.navigation.needsLinks(onPage: page) { dispatch(.linksRead(pageIndex: page, links: links)) }
                if state.navigation.needsWords(onPage: page) { dispatch(.wordsRead(pageIndex: page, words: words)) }
            }
            guard let raster = finished.raster else { continue }
            if let reason = raster.refusal { dispatch(.pageNotDrawn(pageIndex: finished.key.page, reason: reason)) }
            if let (scene, picture) = finished.prefetched {
                pictures.storePrefetched(raster, picture: picture, for: scene)
            } else {
                pictures.store(raster, for: finished.key)
            }
        }
    }

    /// While the reviewer reads, the next page and then the previous one are made on the render thread (raster,
    /// cells, links and words; in the text view, links and words), so turning to them shows them at once. One at a
    /// time, and never while a page is rendering. The renderer's own poppler document reads the text there: the
    /// loop's reading is the loop's alone.
    private func readAhead() {
        guard !rendering.isBusy else { return }
        let textReader = pictures.renderer as? any DocumentNavigating & PageTextReading
        for neighbour in ReadAhead.neighbours(of: state, environment: environment) {
            let picture = neighbour.pictureScene.flatMap { pictures.prefetch(for: $0) }
            guard picture != nil || (neighbour.needsText && textReader != nil) else { continue }
            rendering.prefetch(PageRendering.Ahead(page: neighbour.page, picture: picture, renderer: pictures.renderer,
                                                   textReader: neighbour.needsText ? textReader : nil))
            return
        }
    }

    /// Stamps an event with the time and a fresh id seed, reduces it and performs its effects.
    private func dispatch(_ event: EditorEvent) {
        let elapsed = clock.now - start
        let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID(),
                               milliseconds: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        for effect in EditorReducer.reduce(&state, event, at: stamp, environment: environment) {
            switch effect {
            case .quit:
                // At once on quit: what the journal must hold is written before the process goes.
                writeJournalIfDue(evenIfEarly: true)
                quitting = true
            case .discardJournal:
                debounce.cancel()
                journal?.discard()
            case .setJournalAside:
                debounce.cancel()
                if let kept = journal?.setAside() {
                    state.message = "Earlier unsaved changes not restored; kept in \(Self.shortened(kept))"
                }
            case .journalChanged:
                debounce.changed()
            case .save(let request):
                startSave(request)
            case .search(let request):
                startSearch(request)
            case .stopSearch(let id):
                if searching?.id == id { searching?.stop() }
            case .copyToClipboard(let text):
                screen.copyToClipboard(text)
            case .openURI(let uri):
                openLink(uri)
            case .interactionReported(let report):
                listeners?.report(report)
            case .sendShared(let frames):
                link?.send(frames)
            case .sharedChangesWaiting:
                sharedFlushAt = clock.now + EditorReducer.sharedPause
            case .writeCommentSummary(let request):
                dispatch(Self.writeSummary(request, documentPath: document.path))
            }
        }
    }

    /// The search runs on its own thread with its own reading of the document; its pages come back through
    /// the inbox.
    private func startSearch(_ request: SearchRequest) {
        searching?.stop()
        let job = SearchJob(id: request.id)
        searching = job
        let inbox = inbox
        let document = document
        job.start(request, on: threads, pageCount: described.pageCount, reader: { try document.independentReader() },
                  deliver: { pages, finished in
                      inbox.post { self.dispatch(.searchProgressed(id: request.id, pages: pages, finished: finished)) }
                  }, failed: { reason in
                      inbox.post {
                          self.state.message = "Search failed: \(reason)"
                          self.dispatch(.searchProgressed(id: request.id, pages: [], finished: true))
                      }
                  })
    }

    /// Runs the configured open command with the address as its last argument, never through a shell, its
    /// output kept off the screen; the loop does not wait for it.
    private func openLink(_ uri: String) {
        guard let openCommand else { return }
        do {
            try DetachedCommand.start(openCommand + [uri])
        } catch {
            state.message = "open_command failed: \(error)"
        }
    }

    /// The save runs on its own thread; its steps and its end come back through the inbox.
    private func startSave(_ request: SaveRequest) {
        var made = SaveJob(document: document, described: described, services: services, bookmarkSetup: bookmarkSetup,
                           written: written)
        made.saveStrategy = saveStrategy
        let job = made
        let inbox = inbox
        let beforeSaving = beforeSaving
        saves.start { [self] in
            beforeSaving()
            let result = job.run(request) { step in
                inbox.post { self.dispatch(.saveProgressed(step: step)) }
            }
            inbox.post { self.finishSave(result) }
        }
    }

    private func finishSave(_ result: SaveJob.Result) {
        switch result.outcome {
        case .saved(let path, _, _), .savedOverOriginal(let path, _, _, _): written[path] = FileIdentity(path: path)
        default: break
        }
        if let reopened = result.reopened {
            document = reopened.document
            described = reopened.described
            pictures = PagePictureMaker(renderer: document.renderer, services: services,
                                        depth: ColorDepth(terminalColors: screen.colors))
            pictures.makesCells = images == nil
            // The saved document's pages are new pictures: the terminal's images of the old ones go.
            if let old = images {
                screen.writeImages(old.farewell())
                images = PageImagesFactory.make(for: graphics, colors: screen.colors)
                imageScene = nil
            }
            navigator = try? document.independentReader()
        }
        dispatch(.saveFinished(result.outcome))
    }

    /// The reason alone: the message line names the file already.
    static func reason(_ error: Error, path: String) -> String {
        if case DocumentError.writeFailed(_, let reason) = error { return reason }
        let text = "\(error)"
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
