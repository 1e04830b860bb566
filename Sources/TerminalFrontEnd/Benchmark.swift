import RedlineKit
import CellPictures
import Editor
import Foundation
import RedlineCore
import NcursesTerminal
import TerminalGrid

/// `redline bench FILE.pdf`: the figures that decide how the editor feels, measured on the real code
/// paths (the same picture maker and saver the editor uses), without a terminal.
public enum Benchmark {
    public struct Figure: Sendable {
        public let name: String
        public let median: Duration
        public let best: Duration
        public let runs: Int
        /// A count of bytes instead of a time: what a frame writes to the terminal.
        public var bytes: (median: Int, least: Int)?

        init(name: String, median: Duration, best: Duration, runs: Int, bytes: (median: Int, least: Int)? = nil) {
            self.name = name
            self.median = median
            self.best = best
            self.runs = runs
            self.bytes = bytes
        }
    }

    public static func run(path: String, password: String?, columns: Int = 160, rows: Int = 50,
                           depth: ColorDepth = .palette256) throws -> [Figure] {
        let services = RedlineServices()
        let environment = EditorEnvironment(measurer: services.measurer)
        var figures: [Figure] = []

        figures.append(measure("open", runs: 5) { _ = try? OpenedDocument(path: path, password: password) })
        let document = try OpenedDocument(path: path, password: password)
        var state = EditorState(documentPath: path, document: document.description, columns: columns, rows: rows)

        figures.append(measure("first page render and draw", runs: 5) {
            let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        })

        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
        _ = maker.picture(for: state.scene(environment: environment))
        let turnTarget = document.description.pageCount > 1 ? 1 : 0
        figures.append(measure("page turn", runs: 5) {
            // A fresh maker each run, so the turn pays for its render as it does the first time.
            let turning = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
            var turned = state
            turned.pageIndex = turnTarget
            _ = EditorView.draw(turned, environment: environment, picture: turning.picture(for: turned.scene(environment: environment)))
        })

        // The same turn when the page was made ahead while the one before was read (the editor does that on its
        // render thread): the turn only shows cells made already.
        var turnedState = state
        turnedState.pageIndex = turnTarget
        let turnedScene = turnedState.scene(environment: environment)
        var madeAhead: [PagePictureMaker] = (0..<5).map { _ in
            let ahead = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
            if let work = ahead.prefetch(for: turnedScene) {
                let made = work.make()
                ahead.storePrefetched(made.raster, picture: made.picture, for: turnedScene)
            }
            return ahead
        }
        figures.append(measure("page turn, made ahead", runs: 5) {
            let ahead = madeAhead.removeLast()
            _ = EditorView.draw(turnedState, environment: environment, picture: ahead.picture(for: turnedScene))
        })
        // poppler's own command making the same pixels, for comparison with the uncached turn.
        let size = turnedScene.viewport
        figures.append(measure("pdftoppm, same page, size", runs: 5) {
            let output = NSTemporaryDirectory() + TemporaryFiles.name(for: "redline-bench-pdftoppm")
            defer { unlink(output + ".ppm") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
            process.arguments = ["-f", String(turnTarget + 1), "-l", String(turnTarget + 1), "-singlefile",
                                 "-scale-to-x", String(size.rasterWidth), "-scale-to-y", String(size.rasterHeight),
                                 path, output] + (password.map { ["-upw", $0] } ?? [])
            // pdftoppm's complaints about odd files ("Syntax Error: …") are not the bench's figures.
            process.standardError = FileHandle.nullDevice
            try? process.run()
            process.waitUntilExit()
        })

        func press(_ key: Key) {
            // Stamped as the editor's loop stamps events: the time now and a fresh seed.
            let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
            _ = EditorReducer.reduce(&state, .keyPressed(key), at: stamp, environment: environment)
        }
        for key in [Key.character("t")] + "Approved".map(Key.character) + [.enter] { press(key) }
        _ = maker.picture(for: state.scene(environment: environment))
        let rendersBefore = maker.renderCount
        figures.append(measure("nudge frame", runs: 30) {
            press(.right)
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        })
        precondition(maker.renderCount == rendersBefore, "a nudge re-rendered the page")

        // What those frames write to a terminal: ncurses writing to a file as it would to an xterm-256color.
        if let screen = NcursesScreen(measuring: "xterm-256color", columns: columns, rows: rows) {
            func frameBytes(_ change: () -> Void) -> Int {
                let before = screen.bytesWritten
                change()
                screen.present(EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment))))
                return screen.bytesWritten - before
            }
            let whole = frameBytes {}
            figures.append(Figure(name: "first frame, bytes", median: .zero, best: .zero, runs: 1, bytes: (whole, whole)))
            let nudges = (0..<10).map { _ in frameBytes { press(.right) } }.sorted()
            figures.append(Figure(name: "nudge frame, bytes", median: .zero, best: .zero, runs: nudges.count,
                                  bytes: (nudges[nudges.count / 2], nudges[0])))
        }

        // Ink: each run adds one segment to a stroke being drawn with the pen down.
        for key in [Key.escape, .character("i"), .character(" ")] { press(key) }
        var direction = 1.0
        figures.append(measure("ink segment frame", runs: 30) {
            direction = -direction
            press(direction > 0 ? .shiftRight : .shiftDown)
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        })
        precondition(maker.renderCount == rendersBefore, "drawing ink re-rendered the page")
        press(.escape)

        // What the interaction components add to a key: Tab through the page's markup with the seed's four
        // conditions and a callback, every activation reported as `--events` has it.
        let guarded = Interactions()
        guarded.selectAnnotation.addActivationCondition(.kindsNot(["ink"]))
        guarded.transformAnnotation.addActivationCondition(.point(inside: PDFBox(x1: 0, y1: 0, x2: 400, y2: 200), false))
        guarded.editAnnotation.addActivationCondition(.kindsNot(["text"]))
        guarded.openLinkAnnotation.addActivationCondition(.pages([0]))
        guarded.selectAnnotation.addActivationCallback { _, _, _ in }
        guarded.reportsActivations = true
        let guardedEnvironment = EditorEnvironment(measurer: services.measurer, interactions: guarded)
        figures.append(measure("select step, 4 conditions", runs: 30) {
            let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
            _ = EditorReducer.reduce(&state, .keyPressed(.tab), at: stamp, environment: guardedEnvironment)
        })
        press(.escape)

        // The annotation list on the first page: each run moves the selection one row (back to the top at the end).
        press(.character("a"))
        figures.append(measure("annotation list step", runs: 30) {
            if let panel = state.interaction.annotationPanel, panel.selected == state.annotationRows(panel).last?.annotation.id {
                press(.character("g"))
            } else {
                press(.character("j"))
            }
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        })
        press(.escape)

        // The outline panel open: each run moves one entry down (back to the top at the end) and draws the frame.
        // The outline is read as the editor reads it, from a second poppler reading of the file.
        let reader = try document.independentReader()
        let outline = reader.outline()
        // What the editor reads on the loop when a page is first shown: its links and its words.
        var readPage = 0
        figures.append(measure("page links and words read", runs: min(30, document.description.pageCount)) {
            _ = reader.links(onPage: readPage)
            _ = reader.words(onPage: readPage)
            readPage += 1
        })
        // The text view of the page shown, the document's annotations drawn in it too: each run moves the cursor a
        // line (up and down in turn) and draws the frame.
        let wordsStamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
        _ = EditorReducer.reduce(&state, .wordsRead(pageIndex: state.pageIndex, words: reader.words(onPage: state.pageIndex)),
                                 at: wordsStamp, environment: environment)
        press(.character("T"))
        var down = false
        figures.append(measure("text view step", runs: 30) {
            down.toggle()
            press(down ? .down : .up)
            _ = EditorView.draw(state, environment: environment, picture: nil)
        })
        press(.character("T"))
        let readOutline = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
        _ = EditorReducer.reduce(&state, .outlineRead(outline), at: readOutline, environment: environment)
        press(.character("o"))
        if state.interaction.outlinePanel != nil {
            figures.append(measure("outline panel step", runs: 30) {
                let rows = state.interaction.outlinePanel.map { $0.rows(outline) } ?? []
                press(state.interaction.outlinePanel?.list.selected == rows.last?.path ? .character("g") : .character("j"))
                _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
            })
            press(.escape)
        } else {
            figures.append(Figure(name: "outline step (no outline)", median: .zero, best: .zero, runs: 0))
        }

        // A nudge of an annotation the file has: its page drawn from the one-page copy the writer makes with the
        // move (the page's annotations read again each time), at one pixel a point: the file's first markup annotation that starts a thread.
        if let target = document.description.annotations.first(where: { $0.subtype.isMarkup && !$0.isReply && $0.rect.width > 0 }) {
            var edits = AnnotationEdits()
            figures.append(measure("file annotation nudge, page", runs: 10) {
                edits.move(target.id, dx: 1, dy: 0, at: PDFDate(Date(), timeZone: .current))
                let shown = edits.shownChanges(onPage: target.pageIndex, of: document.description.annotations)
                _ = document.renderer.render(page: target.pageIndex, scale: 1, annotationEdits: shown)
            })
        }

        figures.append(contentsOf: remoteEventFrame(document: document, maker: maker, environment: environment, columns: columns, rows: rows))

        // Named like a temporary file of Redline's, so one left by a bench killed halfway is cleaned up later.
        let output = NSTemporaryDirectory() + TemporaryFiles.name(for: "redline-bench.pdf")
        defer { unlink(output) }
        let saver = DocumentSaver(services: services)
        // A save that fails is no figure: the bench stops and says why.
        var saveFailure: Error?
        figures.append(measure("save", runs: 3) {
            do {
                try saver.save(state.markup, source: path, password: password, description: document.description, to: output)
            } catch {
                saveFailure = error
            }
        })
        if let saveFailure { throw saveFailure }

        // The crash journal as the loop writes it (at most every 250 ms while changes keep coming, never per key):
        // every operation so far, encoded, written atomically and read back.
        let journalFolder = NSTemporaryDirectory() + TemporaryFiles.name(for: "redline-bench-state")
        defer { try? FileManager.default.removeItem(atPath: journalFolder) }
        let journal = MarkupJournal(documentPath: path, environment: ["XDG_STATE_HOME": journalFolder])
        var journalFailure: Error?
        figures.append(measure("journal write", runs: 10) {
            do { try journal.write(state.journalOperations) } catch { journalFailure = error }
        })
        if let journalFailure { throw journalFailure }
        // A common word on every page, as `redline search` and the editor's search go through the document.
        let pages = 0..<document.description.pageCount
        figures.append(measure("search whole document", runs: 3) {
            _ = TextSearch.hits(of: "the", in: pages, using: document.searcher)
        })
        return figures + (try pixelModes(path: path, password: password, columns: columns, rows: rows))
    }

    /// Pages through the whole document as a reviewer holding PageDown would, then back to the start with PageUp,
    /// with the editor's own parts (the reducer, the picture maker, the words and links read for each page), and reads
    /// the resident memory as it goes. The first pass may grow by what poppler keeps of each page it has parsed (its
    /// page tree, bounded by the document); the way back visits only pages seen before, so it must stay flat.
    public static func memoryWhilePaging(path: String, password: String?, columns: Int = 160, rows: Int = 50,
                                         depth: ColorDepth = .palette256) throws -> PagingMemory {
        let services = RedlineServices()
        let environment = EditorEnvironment(measurer: services.measurer)
        let document = try OpenedDocument(path: path, password: password)
        let reader = try document.independentReader()
        var state = EditorState(documentPath: path, document: document.description, columns: columns, rows: rows)
        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
        let pages = document.description.pageCount
        let every = max(1, pages / 10)
        func show(after key: Key?) {
            let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
            if let key { _ = EditorReducer.reduce(&state, .keyPressed(key), at: stamp, environment: environment) }
            _ = EditorReducer.reduce(&state, .linksRead(pageIndex: state.pageIndex, links: reader.links(onPage: state.pageIndex)),
                                     at: stamp, environment: environment)
            _ = EditorReducer.reduce(&state, .wordsRead(pageIndex: state.pageIndex, words: reader.words(onPage: state.pageIndex)),
                                     at: stamp, environment: environment)
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        }
        var memory = PagingMemory(forward: [(0, residentMegabytes())], back: [])
        for page in 0..<pages {
            show(after: page > 0 ? .pageDown : nil)
            if (page + 1) % every == 0 || page == pages - 1 { memory.forward.append((page + 1, residentMegabytes())) }
        }
        memory.back.append((pages, residentMegabytes()))
        for page in stride(from: pages - 2, through: 0, by: -1) {
            show(after: .pageUp)
            if page % every == 0 { memory.back.append((page + 1, residentMegabytes())) }
        }
        return memory
    }

    /// Resident memory in MB after each tenth of the document, on the way to the end and on the way back.
    public struct PagingMemory: Sendable {
        public var forward: [(page: Int, megabytes: Double)]
        public var back: [(page: Int, megabytes: Double)]

        public var report: String {
            func line(_ readings: [(page: Int, megabytes: Double)]) -> String {
                readings.map { "\($0.page): \(Int($0.megabytes.rounded())) MB" }.joined(separator: ", ")
            }
            return "resident memory paging to the end: " + line(forward) + "\n"
                + "resident memory paging back to the start: " + line(back)
        }
    }

    /// VmRSS from /proc/self/status.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    /// A shared session: from a collaborator's event (a text box added on the page shown, then deleted) reaching the
    /// loop to the frame that shows it, drawn over the page without rendering it again.
    static func remoteEventFrame(document: OpenedDocument, maker: PagePictureMaker, environment: EditorEnvironment,
                                 columns: Int, rows: Int) -> [Figure] {
        var state = EditorState(documentPath: document.path, document: document.description, columns: columns, rows: rows)
        EditorReducer.startSharing(&state, document: "bench")
        func receive(_ frame: CollabFrame.Server) {
            let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
            _ = EditorReducer.reduce(&state, .shared(.frame(frame)), at: stamp, environment: environment)
        }
        receive(.welcome(document: "bench", user: "reader", access: "write", head: 0, snapshot: false))
        _ = maker.picture(for: state.scene(environment: environment))
        let rendersBefore = maker.renderCount
        let pages = document.description.pages
        var seq = 0
        let figure = measure("remote event to frame", runs: 30) {
            seq += 1
            let box = Annotation(id: AnnotationID("remote-\(seq)"), pageIndex: 0, subtype: .freeText,
                                 rect: Rect(x: 40 + Double(seq % 10) * 30, y: 60 + Double(seq / 10) * 20, width: 60, height: 16),
                                 author: "writer", contents: "Remark \(seq)", flags: Annotation.printFlag,
                                 drawing: AnnotationDrawing(color: RGBColor(red: 200, green: 0, blue: 0), fontSize: 12))
            let change = AnnotationChange.writing(box, pages: pages, operationID: "op-\(seq)", author: "writer", baseVersion: nil)
            let entry = CollabFrame.Entry(SharedAnnotation(name: box.id.rawValue, pageIndex: 0, author: "writer", version: 1,
                                                           deleted: false, inReplyTo: nil, element: ""))
            receive(.event(CollabFrame.Event(seq: seq, op: change.operationID, author: "writer", time: "", action: .add,
                                             annotations: [entry], xfdf: change.xfdf)))
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        }
        // The same boxes deleted by their author, one event each: a deletion takes one annotation out of the list.
        var gone = 0
        let deletion = measure("remote deletion to frame", runs: 30) {
            gone += 1
            let name = "remote-\(gone)"
            let change = AnnotationChange.deleting(AnnotationID(name), pageIndex: 0, operationID: "gone-\(gone)", author: "writer", baseVersion: 1)
            let entry = CollabFrame.Entry(SharedAnnotation(name: name, pageIndex: 0, author: "writer", version: 2,
                                                           deleted: true, inReplyTo: nil, element: ""))
            receive(.event(CollabFrame.Event(seq: seq + gone, op: change.operationID, author: "writer", time: "", action: .delete,
                                             annotations: [entry], xfdf: change.xfdf)))
            _ = EditorView.draw(state, environment: environment, picture: maker.picture(for: state.scene(environment: environment)))
        }
        precondition(state.annotations.count == document.description.annotations.count, "the remote boxes were not all deleted")
        precondition(maker.renderCount == rendersBefore, "a remote change re-rendered the page")
        return [figure, deletion]
    }

    static func measure(_ name: String, runs: Int, _ body: () -> Void) -> Figure {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<runs {
            durations.append(clock.measure(body))
        }
        durations.sort()
        return Figure(name: name, median: durations[durations.count / 2], best: durations[0], runs: runs)
    }

    public static func report(_ figures: [Figure], path: String, pageCount: Int) -> String {
        func ms(_ duration: Duration) -> String {
            let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            return String(format: "%9.2f ms", value)
        }
        var lines = ["\(path): \(pageCount) page\(pageCount == 1 ? "" : "s")",
                     "what".padding(toLength: 30, withPad: " ", startingAt: 0) + "   median        best  runs"]
        for figure in figures {
            if let bytes = figure.bytes {
                lines.append(figure.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                             + String(format: "%9d B   %9d B  %d", bytes.median, bytes.least, figure.runs))
                continue
            }
            guard figure.runs > 0 else {
                lines.append(figure.name.padding(toLength: 30, withPad: " ", startingAt: 0) + "          —            —  0")
                continue
            }
            lines.append(figure.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                         + ms(figure.median) + "  " + ms(figure.best) + "  \(figure.runs)")
        }
        return lines.joined(separator: "\n")
    }
}
