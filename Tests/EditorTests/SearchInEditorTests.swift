import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// `/`, `?`, `n`, `N` and Esc, with the runner's batches of searched pages sent as it would send them.
@Suite struct SearchInEditorTests {
    /// Hits on pages 3 (two), 8 and 15 of 20; each page's boxes from top to bottom.
    static let hitsByPage: [Int: [SearchHit]] = [
        2: [SearchHit(pageIndex: 2, boxes: [Rect(x: 100, y: 100, width: 40, height: 10)]),
            SearchHit(pageIndex: 2, boxes: [Rect(x: 100, y: 500, width: 40, height: 10)])],
        7: [SearchHit(pageIndex: 7, boxes: [Rect(x: 300, y: 700, width: 40, height: 10)])],
        14: [SearchHit(pageIndex: 14, boxes: [Rect(x: 72, y: 72, width: 40, height: 10),
                                              Rect(x: 72, y: 84, width: 30, height: 10)])],
    ]

    /// Starts a search by keys; returns the request the runner was given.
    private func search(_ editor: inout EditorHarness, _ keys: String, forward: Bool = true) -> SearchRequest? {
        let effects = editor.press(.character(forward ? "/" : "?")) + editor.type(keys) + editor.press(.enter)
        return effects.compactMap { if case .search(let request) = $0 { request } else { nil } }.first
    }

    /// Sends the pages the request asks for, `count` of them, as one batch.
    private func deliver(_ editor: inout EditorHarness, _ request: SearchRequest, pages count: Int, finished: Bool) {
        let order = request.pageOrder(pageCount: editor.state.document.pageCount)
        let done = editor.state.interaction.search?.searchedCount ?? 0
        let pages = order[done..<min(order.count, done + count)].map { SearchedPage(pageIndex: $0, hits: Self.hitsByPage[$0] ?? []) }
        editor.send(.searchProgressed(id: request.id, pages: Array(pages), finished: finished))
    }

    @Test func slashAskedForAPatternAndTheFirstHitIsShownAsSoonAsItIsFound() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.character("/"))
        #expect(editor.screen().text(ofRow: 29).hasPrefix("/▏"))
        editor.press(.escape)
        #expect(editor.state.focus == .page)
        let request = try #require(search(&editor, "Phrase"))
        #expect(request.pattern == "Phrase" && request.startPage == 0 && request.forward)
        deliver(&editor, request, pages: 2, finished: false)
        #expect(editor.state.pageIndex == 0, "nothing found yet: nothing moves")
        deliver(&editor, request, pages: 3, finished: false)
        #expect(editor.state.pageIndex == 2)
        #expect(editor.state.cursor == Point(x: 100, y: 100), "the cursor at the hit: markup typed next goes beside it")
        #expect(editor.screen().text(ofRow: 28).contains("hit 1 of 2+, counting 5/20 pages (Esc stops)"))
        deliver(&editor, request, pages: 15, finished: true)
        #expect(editor.screen().text(ofRow: 28).contains("hit 1 of 4"))
    }

    @Test func nAndCapitalNWalkTheHitsRoundTheEnd() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let request = try #require(search(&editor, "phrase"))
        deliver(&editor, request, pages: 20, finished: true)
        #expect(editor.state.pageIndex == 2)
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 2 && editor.state.cursor.y == 500, "the second hit on the same page")
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 7)
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 14 && editor.screen().text(ofRow: 28).contains("hit 4 of 4"))
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 2 && editor.state.message == "Search went past the end: on from the start")
        editor.press(.character("N"))
        #expect(editor.state.pageIndex == 14 && editor.state.message == "Search went past the start: on from the end")
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 2, "a hit is a jump: Ctrl-O goes back")
    }

    @Test func questionMarkSearchesBackwardFromTheCurrentPage() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.command("10")
        let request = try #require(search(&editor, "phrase", forward: false))
        #expect(request.pageOrder(pageCount: 20).prefix(3) == [9, 8, 7])
        deliver(&editor, request, pages: 3, finished: false)
        #expect(editor.state.pageIndex == 7)
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 7, "page 3 is not searched yet: n waits")
        deliver(&editor, request, pages: 5, finished: false)
        #expect(editor.state.pageIndex == 2 && editor.state.cursor.y == 500, "backward: the lower hit first")
        editor.press(.character("N"))
        #expect(editor.state.pageIndex == 7, "N goes the other way")
    }

    @Test func nCountsFromThePageInViewOnceTheUserLeftTheHit() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let request = try #require(search(&editor, "phrase"))
        deliver(&editor, request, pages: 20, finished: true)
        editor.command("10")
        #expect(!editor.screen().text(ofRow: 28).contains("hit 1"), "away from the hit its number is not shown")
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 14, "the next hit after page 10, not after the old hit on page 3")
        editor.command("10")
        editor.press(.character("N"))
        #expect(editor.state.pageIndex == 7)
    }

    @Test func notFoundSaysSoAndMovesNothing() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.character("z"), .character("j"))
        let before = editor.state.view
        let request = try #require(search(&editor, "absent"))
        editor.send(.searchProgressed(id: request.id, pages: request.pageOrder(pageCount: 20).map { SearchedPage(pageIndex: $0, hits: []) },
                                      finished: true))
        #expect(editor.state.view == before)
        #expect(editor.state.message == "Not found: \"absent\"")
        #expect(editor.state.interaction.search == nil)
    }

    /// Pages the runner could not read (kept from poppler as too costly) are said with the result, as
    /// `redline search` says them: with "Not found", and after the last batch when there were hits.
    @Test func pagesLeftOutAreSaidWithTheResult() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let costly = "it would take more than 20 million drawing steps"
        var request = try #require(search(&editor, "absent"))
        editor.send(.searchProgressed(id: request.id, pages: request.pageOrder(pageCount: 20).map {
            SearchedPage(pageIndex: $0, hits: [], notSearched: $0 == 4 ? costly : nil)
        }, finished: true))
        #expect(editor.state.message == "Not found: \"absent\" (page 5 not searched: \(costly))")

        request = try #require(search(&editor, "fox"))
        editor.send(.searchProgressed(id: request.id, pages: request.pageOrder(pageCount: 20).map {
            SearchedPage(pageIndex: $0, hits: Self.hitsByPage[$0] ?? [], notSearched: [4, 9].contains($0) ? costly : nil)
        }, finished: true))
        #expect(editor.state.message == "All 4 hits found; 2 pages (the first 5) not searched: \(costly)")
    }

    @Test func escStopsTheCountingAndNKeepsToThePagesSearched() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let request = try #require(search(&editor, "phrase"))
        deliver(&editor, request, pages: 10, finished: false)
        let effects = editor.press(.escape)
        #expect(effects == [.stopSearch(request.id)])
        #expect(editor.state.message == "Search stopped after 10 of 20 pages")
        #expect(editor.screen().text(ofRow: 28).contains("3 hits in 10 of 20 pages"))
        deliver(&editor, request, pages: 10, finished: true)
        #expect(editor.state.interaction.search?.hitCount == 3, "late pages of a stopped search are ignored")
        editor.press(.character("n"), .character("n"))
        #expect(editor.state.pageIndex == 7)
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 2 && editor.state.cursor.y == 100, "past page 10 nothing is known: round to the start")
    }

    @Test func escHidesTheOutlinesOnceCountingIsDoneAndNBringsThemBack() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let request = try #require(search(&editor, "phrase"))
        deliver(&editor, request, pages: 20, finished: true)
        let scene = editor.state.scene(environment: editor.environment)
        #expect(scene.marks.map(\.kind) == [.currentHit, .hit])
        #expect(scene.marks.map(\.rect) == Self.hitsByPage[2]!.map(\.box))
        editor.press(.escape)
        #expect(editor.state.scene(environment: editor.environment).marks.isEmpty)
        editor.press(.character("n"))
        #expect(editor.state.scene(environment: editor.environment).marks.map(\.kind) == [.hit, .currentHit])
    }

    @Test func theHitIsScrolledIntoViewWhenZoomedIn() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        for _ in 0..<6 { editor.press(.character("z")) }
        let request = try #require(search(&editor, "phrase"))
        deliver(&editor, request, pages: 20, finished: true)
        editor.press(.character("n"), .character("n"))
        #expect(editor.state.pageIndex == 7)
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let box = Self.hitsByPage[7]![0].box
        let left = Double(viewport.originPixel.x) / viewport.scale, top = Double(viewport.originPixel.y) / viewport.scale
        let width = Double(viewport.columns * viewport.cellPixels.width) / viewport.scale
        let height = Double(viewport.rows * viewport.cellPixels.height) / viewport.scale
        #expect(box.minX >= left && box.maxX <= left + width && box.minY >= top && box.maxY <= top + height,
                "hit \(box) inside the view \(left), \(top), \(width) × \(height)")
    }

    @Test func aHitOverTwoLinesIsMarkedOnBoth() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        let request = try #require(search(&editor, "phrase", forward: false))
        deliver(&editor, request, pages: 20, finished: true)
        #expect(editor.state.pageIndex == 14)
        #expect(editor.state.scene(environment: editor.environment).marks.filter { $0.kind == .currentHit }.count == 2)
    }

    @Test func anEmptyPatternRepeatsTheLastSearchAndNWithoutASearchSaysHow() throws {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.character("n"))
        #expect(editor.state.message == "No search yet (/ or ? searches)")
        let first = try #require(search(&editor, "phrase"))
        deliver(&editor, first, pages: 20, finished: true)
        let again = try #require(search(&editor, "", forward: false))
        #expect(again.pattern == "phrase" && !again.forward)
    }

    @Test func helpMovedToF1AndColonHelp() {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        editor.press(.function(1))
        #expect(editor.state.interaction.overlays == [.help(scroll: 0)])
        editor.press(.function(1))
        #expect(editor.state.interaction.overlays.isEmpty)
        editor.command("help")
        #expect(editor.state.interaction.overlays == [.help(scroll: 0)])
    }
}
