import Editor
import Foundation
import RedlineCore
import RedlineKit
import TerminalFrontEnd
import TerminalGrid
import Testing
import TestSupport

/// The real session (loop, save thread, journal) on a real document, driven through a recording screen.
@Suite struct EditorSessionTests {
    static func keys(_ text: String) -> [Key] { text.map(Key.character) }

    @Test func keysPressedWhileASaveRunsAreHandledAndStayUnsaved() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "white-and-black-pages.pdf")
        let output = folder.file("out.pdf")
        let gate = DispatchSemaphore(value: 0)
        var session: EditorSession?
        var editsWhileSaving: DocumentEdits?
        let screen = RecordingScreen(script: [
            .keys(Self.keys("tHi") + [.enter]),
            .keys(Self.keys(":w \(output)") + [.enter]),
            .waitForFrame(containing: "Saving \(output)…"),
            // The save is held on its thread: these keys must be handled now, not after it.
            .keys([.right, .right, .right]),
            .run {
                editsWhileSaving = session?.state.edits
                gate.signal()
            },
            .waitForFrame(containing: "Saved without the changes made while saving"),
            .keys(Self.keys(":q!") + [.enter]),
        ])
        let document = try OpenedDocument(path: source, password: nil)
        session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                journalEnvironment: ["XDG_STATE_HOME": folder.file("state")],
                                beforeSaving: { gate.wait() })
        session?.run()
        #expect(screen.timedOut == nil, "no frame showed \(screen.timedOut ?? "")")

        let final = try #require(session?.state)
        let saved = try #require(final.savedEdits.markup.items.first)
        let moved = try #require(editsWhileSaving?.markup.items.first)
        #expect(moved.translated(dx: -3, dy: 0) == saved, "the nudges were handled while the save was held")
        #expect(final.isDirty)
        // What the file holds is what was saved: the text, where it was before the nudges.
        let words = try PopplerText.words(in: output, page: 0)
        #expect(words.contains { $0.text == "Hi" }, "\(words)")
        // Frames kept coming while the save ran: the screen never froze on it.
        let savingFrames = screen.frames.filter { $0.last?.contains("Saving \(output)…") == true }
        #expect(savingFrames.count >= 2)
    }

    /// Characters a picture puts in the page area (rows above the status line), besides the cursor.
    static func drawnCells(_ lines: [String]) -> Int {
        lines.dropLast(2).reduce(0) { $0 + $1.filter { $0 != " " && $0 != "+" }.count }
    }

    /// While page 1 is read, page 2 is made on the render thread: PageDown shows it in the first frame, with no
    /// render of its own.
    @Test func theNextPageIsMadeAheadAndShownAtOnce() throws {
        let folder = TemporaryFolder()
        // Each render: its page, and whether PageDown had been pressed when it started.
        let rendered = Locked<[(page: Int, afterTurning: Bool)]>([])
        let turned = Locked(false)
        var session: EditorSession?
        var wordsBeforeTurning: Int?
        let screen = RecordingScreen(script: [
            .waitForFrameWhere("page 1 drawn") { Self.drawnCells($0) > 100 },
            // Page 2's words come in after its picture (one job on the render thread, its results in order): once
            // the loop has them, the picture made ahead is in too. Waited for as an event, however busy the machine.
            .waitUntil("page 2 made ahead and its words read") {
                rendered.value.contains { $0.page == 1 } && session?.state.navigation.words[1] != nil
            },
            // A frame, so the loop collects what the render thread made.
            .keys([.character("z")]),
            .waitForFrame(containing: "zoom 125%"),
            .keys([.character("0")]),
            .waitForFrame(containing: "zoom 100%"),
            .run { wordsBeforeTurning = session?.state.navigation.words[1]?.count },
            .run { turned.mutate { $0 = true } },
            .keys([.pageDown]),
            .waitForFrame(containing: "page 2/4"),
            .keys(Self.keys(":q!") + [.enter]),
        ])
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                journalEnvironment: ["XDG_STATE_HOME": folder.file("state")],
                                beforeRendering: { page in rendered.mutate { $0.append((page, turned.value)) } })
        session?.run()
        #expect(screen.timedOut == nil, "no frame showed \(screen.timedOut ?? "")")
        let first = try #require(screen.frames.first { $0.contains { $0.contains("page 2/4") } })
        #expect(!(first.first ?? "").contains("Rendering page"), "page 2 was ready: \(first.first ?? "")")
        #expect(Self.drawnCells(first) > 100)
        #expect((wordsBeforeTurning ?? 0) > 0, "page 2's words were read ahead too: \(wordsBeforeTurning as Any)")
        // Made ahead, never after turning. On a busy machine it may be made ahead twice: at 125 % too, when the zoom
        // step's render starts before the step back arrives.
        let pageTwo = rendered.value.filter { $0.page == 1 }
        #expect(!pageTwo.isEmpty && pageTwo.allSatisfy { !$0.afterTurning }, "page 2 made ahead only: \(rendered.value)")
    }

    /// A page that takes long to render is drawn off the loop: meanwhile the last picture stays, labelled, and
    /// keys work.
    @Test func keysWorkWhileAPageRendersAndThePageAppearsWhenDone() throws {
        let folder = TemporaryFolder()
        let gate = DispatchSemaphore(value: 0)
        var session: EditorSession?
        var heldFrame: [String] = []
        var recorded: RecordingScreen?
        let screen = RecordingScreen(script: [
            .waitForFrameWhere("page 1 drawn") { Self.drawnCells($0) > 100 },
            .keys([.pageDown]),
            .waitForFrame(containing: "page 2/4"),
            // Page 2's render is held on its thread: the editor must still take keys.
            .keys([.character("b")]),
            .waitForFrame(containing: "Bookmarked page 2"),
            .run {
                heldFrame = recorded?.frames.last ?? []
                gate.signal()
            },
            .waitForFrameWhere("page 2 drawn") { !($0.first ?? "").contains("Rendering page") && Self.drawnCells($0) > 100 },
            .keys(Self.keys(":q!") + [.enter]),
        ])
        recorded = screen
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                journalEnvironment: ["XDG_STATE_HOME": folder.file("state")],
                                beforeRendering: { page in if page == 1 { gate.wait() } })
        session?.run()
        #expect(screen.timedOut == nil, "no frame showed \(screen.timedOut ?? "")")
        #expect(heldFrame.first?.hasPrefix(" Rendering page 2… ") == true, "the last picture stays, marked: \(heldFrame.first ?? "")")
        #expect(Self.drawnCells(heldFrame) > 100, "the page area is not blanked while page 2 renders")
        #expect(session?.state.bookmarks.bookmarks(onPage: 1).count == 1)
    }
}

/// Quitting ends the session only once its threads have: a save finishes its file, and a render still running ends
/// before the process could exit under it (poppler's global state torn down by exit crashed a render left running).
@Suite struct QuittingWaitsForBackgroundWorkTests {
    @Test func quittingDuringASaveReturnsOnlyOnceTheFileIsWhole() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "white-and-black-pages.pdf")
        let output = folder.file("out.pdf")
        let screen = RecordingScreen(script: [
            .keys(EditorSessionTests.keys("tHi") + [.enter]),
            .keys(EditorSessionTests.keys(":w \(output)") + [.enter]),
            .waitForFrame(containing: "Saving \(output)…"),
            .keys(EditorSessionTests.keys(":q!") + [.enter]),
        ])
        let document = try OpenedDocument(path: source, password: nil)
        let session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                    reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                    journalEnvironment: ["XDG_STATE_HOME": folder.file("state")],
                                    beforeSaving: { Thread.sleep(forTimeInterval: 0.5) })
        session.run()
        #expect(screen.timedOut == nil, "no frame showed \(screen.timedOut ?? "")")
        // At once, as the process would exit here: the file is there, whole, with the text.
        let words = try PopplerText.words(in: output, page: 0)
        #expect(words.contains { $0.text == "Hi" }, "\(words)")
    }

    @Test func quittingWhileAPageRendersReturnsOnlyOnceTheRenderEnded() throws {
        let folder = TemporaryFolder()
        let renderOfPageTwo = Locked<(entered: Bool, left: Bool)>((false, false))
        let screen = RecordingScreen(script: [
            .waitForFrameWhere("page 1 drawn") { EditorSessionTests.drawnCells($0) > 100 },
            .keys([.pageDown]),
            .waitForFrame(containing: "Rendering page 2"),
            .keys(EditorSessionTests.keys(":q!") + [.enter]),
        ])
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        let session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                    reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                    journalEnvironment: ["XDG_STATE_HOME": folder.file("state")],
                                    beforeRendering: { page in
                                        guard page == 1 else { return }
                                        renderOfPageTwo.mutate { $0.entered = true }
                                        Thread.sleep(forTimeInterval: 0.5)
                                        renderOfPageTwo.mutate { $0.left = true }
                                    })
        session.run()
        #expect(screen.timedOut == nil, "no frame showed \(screen.timedOut ?? "")")
        #expect(renderOfPageTwo.value.entered)
        #expect(renderOfPageTwo.value.left, "the session returned while page 2 was still rendering")
    }
}

/// A value shared between a test and the threads it watches.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func mutate(_ change: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&stored)
    }
}

/// A text view's scene is never made into a picture: its cells are a thousand raster units wide, and a picture of
/// them would take gigabytes (a page read ahead next to a turned page once asked for one, and the editor aborted).
@Suite struct TextSceneIsNoPictureTests {
    @Test func aTextViewSceneIsNeitherRenderedNorMadeAhead() throws {
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        let services = RedlineServices()
        let environment = EditorEnvironment(measurer: services.measurer)
        var state = EditorState(documentPath: TestPaths.sample, document: document.description, columns: 100, rows: 30)
        let words = try document.independentReader().words(onPage: 0)
        let stamp = EventStamp(time: PDFDate(year: 2026, month: 11, day: 24, hour: 1, minute: 0, offsetMinutes: 0),
                               seed: StableUUID.derived(seed: 9, item: "words"))
        _ = EditorReducer.reduce(&state, .wordsRead(pageIndex: 0, words: words), at: stamp, environment: environment)
        _ = EditorReducer.reduce(&state, .keyPressed(.character("T")), at: stamp, environment: environment)
        let scene = state.scene(environment: environment)
        #expect(scene.viewport.textColumns != nil)
        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .palette256)
        #expect(maker.prefetch(for: scene) == nil)
        #expect(maker.missingRaster(for: scene) == nil)
        #expect(maker.picture(for: scene).columns == 100)
        #expect(maker.renderCount == 0)
    }

    /// On a turned page shown as its picture while the text view is on (sample.pdf page 3), page 2 beside it shows
    /// as text: it is read ahead for its words, never made as a picture; page 4, turned too, is made as a picture.
    @Test func besideATurnedPageATextPageIsReadAheadForItsWordsOnly() throws {
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        let reader = try document.independentReader()
        let environment = EditorEnvironment(measurer: RedlineServices().measurer)
        var state = EditorState(documentPath: TestPaths.sample, document: document.description, columns: 100, rows: 30, pageIndex: 1)
        var number = 0
        func send(_ event: EditorEvent) {
            number += 1
            let stamp = EventStamp(time: PDFDate(year: 2026, month: 11, day: 24, hour: 1, minute: 0, offsetMinutes: 0),
                                   seed: StableUUID.derived(seed: 9, item: "event \(number)"))
            _ = EditorReducer.reduce(&state, event, at: stamp, environment: environment)
        }
        send(.wordsRead(pageIndex: 1, words: reader.words(onPage: 1)))
        send(.keyPressed(.character("T")))
        #expect(state.showsTextView)
        send(.keyPressed(.pageDown))
        send(.wordsRead(pageIndex: 2, words: reader.words(onPage: 2)))
        #expect(!state.showsTextView && state.pageIndex == 2, "page 3 is turned: its picture")
        let neighbours = ReadAhead.neighbours(of: state, environment: environment)
        let pageTwo = try #require(neighbours.first { $0.page == 1 })
        let pageFour = try #require(neighbours.first { $0.page == 3 })
        #expect(pageTwo.pictureScene == nil, "page 2 shows as text: no picture of it")
        #expect(pageFour.pictureScene != nil && pageFour.pictureScene?.viewport.textColumns == nil)
        #expect(pageFour.needsText)
    }
}
