import RedlineCore
import TerminalGrid

/// The editor's only way to change: an event and the current state give the next state and the effects to run.
/// No I/O, no clock: every behaviour can be driven from a test.
public enum EditorReducer {
    public static func reduce(_ state: inout EditorState, _ event: EditorEvent, at stamp: EventStamp,
                              environment: EditorEnvironment) -> [EditorEffect] {
        state.interaction.clock = EventClock(stamp: stamp)
        state.interaction.input = .key
        state.interaction.via = ""
        var effects = reduceEvent(&state, event, environment)
        if state.sharing != nil { effects += noteSharedChanges(&state) }
        guard !state.interaction.reports.isEmpty else { return effects }
        defer { state.interaction.reports = [] }
        return state.interaction.reports.map { .interactionReported($0) } + effects
    }

    private static func reduceEvent(_ state: inout EditorState, _ event: EditorEvent, _ environment: EditorEnvironment) -> [EditorEffect] {
        switch event {
        case .resized(let columns, let rows):
            state.columns = max(1, columns)
            state.rows = max(3, rows)
            revealCursor(&state, environment)
            return []
        case .saveProgressed(let step):
            guard let running = state.chrome.saving else { return [] }
            state.chrome.saving?.step = step
            state.message = "Saving \(running.destination)… \(step)"
            return []
        case .saveFinished(let outcome):
            return finishSave(&state, outcome)
        case .operationReceived(let operation):
            state.editing.receive(operation)
            if let id = state.selection, state.markup.item(id) == nil { state.selection = nil }
            return journalDue
        case .mouse(let event):
            return mouse(&state, event, environment)
        case .journalFound(let edits, let shared):
            guard !edits.isEmpty else { return [] }
            state.interaction.overlays.append(.question(.restoreJournal(edits, shared: shared)))
            return []
        case .outlineRead(let outline):
            state.navigation.outline = outline
            return []
        case .placeRestored(let place):
            restore(&state, place, environment)
            return []
        case .commentSummaryWritten(let path, let message, let failure):
            if let failure, var panel = state.interaction.annotationPanel, panel.input == nil {
                panel.input = .summaryPath(text: path)
                state.interaction.panel = .annotations(panel)
                state.message = "Not written: " + failure
            } else {
                state.message = failure.map { "Summary not written: " + $0 } ?? message
            }
            return []
        case .linksRead(let page, let links):
            state.navigation.links[page] = links
            state.navigation.touch(page)
            return []
        case .pageNotDrawn(let page, let reason):
            if state.navigation.notDrawn.updateValue(reason, forKey: page) == nil, page == state.pageIndex {
                state.message = "Page \(page + 1) is not drawn: \(reason)"
            }
            return []
        case .wordsRead(let page, let words):
            state.navigation.words[page] = words
            state.navigation.touch(page)
            if page == state.pageIndex {
                layOutTextIfShown(&state)
                sayIfTextViewHasNoText(&state)
                // The text view's cells are known only now: the cursor is brought into them.
                if state.showsTextView { revealCursor(&state, environment) }
            }
            return []
        case .searchProgressed(let id, let pages, let finished):
            searchProgressed(&state, id: id, pages: pages, finished: finished, environment)
            return []
        case .pasted(let text):
            return paste(&state, text)
        case .keyPressed(let key):
            return keyPressed(&state, key, environment)
        case .interactionRequested(let request):
            state.interaction.via = "request"
            return perform(&state, request, environment)
        case .shared(let event):
            return shared(&state, event, environment)
        }
    }

    /// A key goes to what has the keyboard, through that context's keymap.
    static func keyPressed(_ state: inout EditorState, _ key: Key, _ env: EditorEnvironment, bindingsDone: Bool = false) -> [EditorEffect] {
        if state.interaction.via.isEmpty { state.interaction.via = key.name }
        if !bindingsDone, let context = state.focus.keymapContext, let effects = userBindings(&state, key, context, env) {
            return effects
        }
        switch state.focus {
        case .page: return normalKey(&state, key, env)
        case .typing(let draft): return typingKey(&state, draft, key, env)
        case .inking(let session): return inkKey(&state, session, key, env)
        case .commenting(let draft): return commentingKey(&state, draft, key)
        case .selectingText(let selection): return textSelectionKey(&state, selection, key, env)
        case .panel(.annotations(let panel)): return annotationPanelKey(&state, panel, key, env)
        case .panel(.bookmarks(let panel)): return bookmarkPanelKey(&state, panel, key, env)
        case .panel(.outline(let panel)): return outlinePanelKey(&state, panel, key, env)
        case .overlay(.linkHints(let typed)): return linkHintKey(&state, typed, key, env)
        case .overlay(.commandLine(let line)): return commandKey(&state, line, key, env)
        case .overlay(.question(let question)): return confirmKey(&state, question, key)
        case .overlay(.searchLine(let prompt)): return searchLineKey(&state, prompt, key, env)
        case .overlay(.help(let scroll)):
            let area = state.layout.overlayArea
            let visible = max(1, area.height - 4)
            let limit = max(0, HelpOverlay.rowCount(area: area, keymaps: state.keymaps) - visible)
            let step: Int
            switch state.keymaps.command(for: key, in: .help) {
            case .helpDown?: step = 1
            case .helpUp?: step = -1
            case .helpPageDown?: step = max(1, visible - 1)
            case .helpPageUp?: step = -max(1, visible - 1)
            case .unbound?: return []
            default:
                state.interaction.closeTopOverlay()
                return []
            }
            state.interaction.replaceTopOverlay(with: .help(scroll: min(max(0, scroll + step), limit)))
            return []
        }
    }

    /// Pasted text goes into what is being typed, with its line breaks and control characters made spaces (a
    /// text markup, a reply, a name and a command are one line). Anywhere else it is refused, never run as keys.
    static func paste(_ state: inout EditorState, _ text: String) -> [EditorEffect] {
        let line = TextInput.pastable(text)
        switch state.focus {
        case .typing(var draft):
            draft.markup.text += line
            state.interaction.activity = .typing(draft)
            return journalDue
        case .commenting(var draft):
            draft.text += line
            state.interaction.activity = .commenting(draft)
            return journalDue
        case .overlay(.commandLine(let typed)):
            state.interaction.replaceTopOverlay(with: .commandLine(typed + line))
            return []
        case .panel(.annotations(var panel)) where panel.input != nil:
            switch panel.input {
            case .reply(let target, let typed)?: panel.input = .reply(to: target, text: typed + line)
            case .edit(let id, let typed)?: panel.input = .edit(id, text: typed + line)
            case .filtering(let typed)?: panel.input = .filtering(text: typed + line)
            case .summaryPath(let typed)?: panel.input = .summaryPath(text: typed + line)
            default:
                state.message = "Paste goes into text being typed"
                return []
            }
            state.interaction.panel = .annotations(panel)
            return journalDue
        case .panel(.bookmarks(var panel)) where panel.renaming != nil:
            panel.renaming = (panel.renaming ?? "") + line
            state.interaction.panel = .bookmarks(panel)
            return []
        case .overlay(.searchLine(let prompt)):
            state.interaction.replaceTopOverlay(with: .searchLine(SearchPrompt(forward: prompt.forward, text: prompt.text + line)))
            return []
        case .overlay(.question):
            // The question stays on the line: a paste answers nothing.
            return []
        default:
            let onPage = state.focus == .page
            state.message = "Pasted text was not used: it goes into text being typed"
                + ((onPage ? state.keymaps.keys(for: .typeText, in: .page).first : nil).map { " (\($0.name) starts a text markup)" } ?? "")
            return []
        }
    }

    // MARK: Normal mode

    /// Commands that nudge a selection; any other command ends a run of nudges (one undo step).
    private static let nudgeCommands: Set<EditorCommand> = [.moveUp, .moveDown, .moveLeft, .moveRight,
                                                            .moveFarUp, .moveFarDown, .moveFarLeft, .moveFarRight]

    private static func normalKey(_ state: inout EditorState, _ key: Key, _ env: EditorEnvironment) -> [EditorEffect] {
        state.message = nil
        if let pending = state.interaction.pendingMark {
            state.interaction.pendingMark = nil
            markKey(&state, pending, key, env)
            return []
        }
        let command = state.keymaps.command(for: key, in: .page)
        // A count, as in vim: digits no binding claims (and 0 after another digit) come before a command.
        if case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII,
           command == nil || (digit == 0 && state.interaction.pendingCount != nil) {
            state.interaction.pendingCount = min(99_999, (state.interaction.pendingCount ?? 0) * 10 + digit)
            state.interaction.pendingG = false
            return []
        }
        let count = state.interaction.pendingCount
        state.interaction.pendingCount = nil
        guard let command else {
            state.interaction.pendingG = false
            state.interaction.endNudgeRuns()
            return []
        }
        // `gg` goes to the first page (with a count, to that page); a single `g` waits for the second.
        if command == .firstPage, key == .character("g") {
            guard state.interaction.pendingG else {
                state.interaction.pendingG = true
                state.interaction.pendingCount = count
                return []
            }
        }
        state.interaction.pendingG = false
        return counted(&state, command, count: count, env)
    }

    /// A command after a count: `12G` and `12gg` go to page 12, `5j` scrolls five times, `3 PageDown` turns three
    /// pages; commands a count means nothing to run once.
    private static func counted(_ state: inout EditorState, _ command: EditorCommand, count: Int?,
                                _ env: EditorEnvironment) -> [EditorEffect] {
        guard let count, count > 0 else { return pageCommand(&state, command, env) }
        switch command {
        case .firstPage, .lastPage:
            guard count <= state.document.pageCount else {
                state.message = "No page \(count): the document has \(state.document.pageCount)"
                return []
            }
            jump(&state, toPage: count - 1, env)
            return []
        case .nextPage, .previousPage:
            goToPage(&state, state.pageIndex + (command == .nextPage ? count : -count), env)
            return []
        case .scrollDown, .scrollUp, .scrollLeft, .scrollRight, .screenDown, .screenUp,
             .moveUp, .moveDown, .moveLeft, .moveRight, .moveFarUp, .moveFarDown, .moveFarLeft, .moveFarRight:
            // Repeated in full, but no further once a repeat changes nothing (at the end of the document, or a
            // selection against the page's edge): 99999j ends on the last page at once.
            var effects: [EditorEffect] = []
            for _ in 0..<count {
                let before = (state.view, state.markup)
                effects += pageCommand(&state, command, env)
                if (state.view, state.markup) == before { break }
            }
            return effects.contains(.journalChanged) ? journalDue : effects
        default:
            return pageCommand(&state, command, env)
        }
    }

    /// What a command does on the page, with no panel or overlay in the way.
    static func pageCommand(_ state: inout EditorState, _ command: EditorCommand, _ env: EditorEnvironment) -> [EditorEffect] {
        if !nudgeCommands.contains(command) { state.interaction.endNudgeRuns() }
        // The zoom keys change the picture's size; the text view says so (smart zoom asks in `smartZoom`).
        if [.zoomIn, .zoomOut, .zoomFit, .fitWidth].contains(command), refuseZoomInTextView(&state) { return [] }
        switch command {
        case .scrollDown: scrollDown(&state, by: scrollRows, env)
        case .scrollUp: scrollUp(&state, by: scrollRows, env)
        case .scrollLeft: scroll(&state, dx: -view(state, env).cell.width * scrollColumns, dy: 0, env)
        case .scrollRight: scroll(&state, dx: view(state, env).cell.width * scrollColumns, dy: 0, env)
        case .screenDown: scrollScreen(&state, down: true, env)
        case .screenUp: scrollScreen(&state, down: false, env)
        case .nextPage: goToPage(&state, state.pageIndex + 1, env)
        case .previousPage: goToPage(&state, state.pageIndex - 1, env)
        case .firstPage: jump(&state, toPage: 0, env)
        case .lastPage: jump(&state, toPage: state.document.pageCount - 1, env)
        case .toggleInterface: toggleInterface(&state, env)
        case .jumpBack: jumpBack(&state, env)
        case .setMark: state.interaction.pendingMark = .set
        case .goToMark: state.interaction.pendingMark = .go
        case .jumpForward: jumpForward(&state, env)
        case .trySelectAnnotation, .tryDeselectAnnotation, .tryEditAnnotation, .tryOpenLink, .tryFastScroll, .trySmartZoom,
             .tryToggleInterface, .trySelectText, .tryDeselectText:
            guard let component = InteractionComponentName.allCases.first(where: { $0.tryCommand == command }) else { return [] }
            return perform(&state, InteractionRequest(component, at: currentLocation(state)), env)
        case .commandLine, .help: openOverlay(&state, for: command)
        case .annotations: openAnnotationPanel(&state, env)
        case .toggleBookmark: return toggleBookmark(&state, env)
        case .bookmarks: openBookmarkPanel(&state)
        case .outline: openOutlinePanel(&state, env)
        case .followLink: startLinkHints(&state, env)
        case .selectText: startTextSelection(&state, env)
        case .smartZoom: smartZoom(&state, at: state.cursor, env)
        case .zoomIn: zoom(&state, in: true, env)
        case .zoomOut: zoom(&state, in: false, env)
        case .zoomFit:
            state.view.beforeSmartZoom = nil
            state.zoom = 1
            state.view.fitsWidth = false
            revealCursor(&state, env)
        case .textView: toggleTextView(&state, env)
        case .recolor:
            state.view.recolors.toggle()
            state.message = state.view.recolors ? "Dark page: lightness turned over, hues kept (I again: as printed)" : "Page as printed"
        case .fitWidth:
            state.view.beforeSmartZoom = nil
            state.view.fitsWidth = true
            revealCursor(&state, env)
        case .moveUp: return arrow(&state, dx: 0, dy: -1, large: false, env)
        case .moveDown: return arrow(&state, dx: 0, dy: 1, large: false, env)
        case .moveLeft: return arrow(&state, dx: -1, dy: 0, large: false, env)
        case .moveRight: return arrow(&state, dx: 1, dy: 0, large: false, env)
        case .moveFarUp: return arrow(&state, dx: 0, dy: -1, large: true, env)
        case .moveFarDown: return arrow(&state, dx: 0, dy: 1, large: true, env)
        case .moveFarLeft: return arrow(&state, dx: -1, dy: 0, large: true, env)
        case .moveFarRight: return arrow(&state, dx: 1, dy: 0, large: true, env)
        case .ink:
            state.selection = nil
            state.interaction.activity = .inking(InkSession(id: MarkupID(state.freshID()), pageIndex: state.pageIndex, pen: state.cursor))
        case .typeText:
            state.selection = nil
            let text = TextMarkup(origin: state.cursor, text: "", fontSize: state.textStyle.fontSize, color: state.textStyle.color)
            state.interaction.activity = .typing(TextDraft(editing: nil, id: MarkupID(state.freshID()), pageIndex: state.pageIndex, markup: text))
        case .selectNext: cycleSelection(&state, forward: true, env)
        case .selectPrevious: cycleSelection(&state, forward: false, env)
        case .deselect:
            // Esc undoes the last thing shown: a search still counting stops, then a selection goes, then the
            // search's outlines (as vim's :nohlsearch).
            if state.interaction.search?.progress == .counting { return stopSearch(&state) }
            if let id = state.selection, let item = state.markup.item(id) {
                if permits(&state, .deselectAnnotation, on: item, env, at: middle(of: item, env)) {
                    state.selection = nil
                }
            } else if let annotation = state.selectedFileAnnotation {
                if permits(&state, .deselectAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) {
                    state.interaction.selectedAnnotation = nil
                }
            } else if state.interaction.search?.shown == true {
                state.interaction.search?.shown = false
            }
        case .searchForward: openSearchLine(&state, forward: true)
        case .searchBackward: openSearchLine(&state, forward: false)
        case .searchNext: searchAgain(&state, sameWay: true, env)
        case .searchPrevious: searchAgain(&state, sameWay: false, env)
        case .editSelection:
            if let annotation = state.selectedFileAnnotation {
                editFileAnnotationText(&state, annotation, env, at: middle(of: annotation))
                return []
            }
            startEditingSelection(&state, env)
        case .deleteSelection:
            if let annotation = state.selectedFileAnnotation {
                guard permits(&state, .editAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) else { return [] }
                return deleteSelectedAnnotation(&state, annotation)
            }
            if let id = state.selection, let item = state.markup.item(id) {
                guard permits(&state, .editAnnotation, on: item, env, at: middle(of: item, env)) else { return [] }
            }
            return deleteSelection(&state)
        case .bigger, .smaller:
            if let annotation = state.selectedFileAnnotation {
                guard permits(&state, .transformAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) else { return [] }
                return stepAnnotationFontSize(&state, annotation, up: command == .bigger, env)
            }
            return stepFontSize(&state, up: command == .bigger, env)
        case .nextColour:
            if let annotation = state.selectedFileAnnotation {
                guard permits(&state, .editAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) else { return [] }
                return recolourAnnotation(&state, annotation)
            }
            if let id = state.selection, let item = state.markup.item(id) {
                guard permits(&state, .editAnnotation, on: item, env, at: middle(of: item, env)) else { return [] }
            }
            return cycleColor(&state)
        case .undo: return undo(&state)
        case .redo: return redo(&state)
        case .quitHint:
            let quitKey = state.keymaps.keys(for: .quit, in: .page).first.map { "\($0.name) (asks about unsaved markup), " } ?? ""
            state.message = "To quit: \(quitKey):wq saves and quits, :q! discards"
        case .quit:
            if let quitting = quitShared(&state, force: false) { return quitting }
            if state.isDirty {
                state.interaction.overlays.append(.question(.quitWithUnsavedChanges))
                return []
            }
            return [.discardJournal, .quit]
        case .pointAt:
            return pointAt(&state, env)
        default: break
        }
        return []
    }

    /// `F`: the status line, message line and panels go, and the page fills the terminal; again, they come back.
    static func toggleInterface(_ state: inout EditorState, _ env: EditorEnvironment, at location: InteractionLocation? = nil) {
        guard permits(&state, .toggleUserInterface, context(.toggleUserInterface, state), env, at: location) else { return }
        // A panel open when the interface is hidden comes back with it, as it was.
        if state.chrome.hidesInterface {
            state.chrome.hidesInterface = false
            if state.interaction.panel == nil { state.interaction.panel = state.chrome.hiddenPanel }
            state.chrome.hiddenPanel = nil
        } else {
            state.chrome.hidesInterface = true
            state.chrome.hiddenPanel = state.interaction.panel
            state.interaction.panel = nil
        }
        revealCursor(&state, env)
    }

    /// What every side panel does alike: the `:` line and the key overlay open over it, and `F` hides the
    /// interface with the panel (to come back with it).
    static func panelWideCommand(_ state: inout EditorState, _ command: EditorCommand?, _ env: EditorEnvironment) -> [EditorEffect] {
        guard command == .toggleInterface else {
            openOverlay(&state, for: command)
            return []
        }
        return pageCommand(&state, .toggleInterface, env)
    }

    /// The `:` line or the key overlay, over whatever is open: closing it returns there.
    static func openOverlay(_ state: inout EditorState, for command: EditorCommand?) {
        state.interaction.overlays.append(command == .help ? .help(scroll: 0) : .commandLine(""))
    }

    // MARK: Pages, zoom and the cursor

    /// Turns to a page at its top (or foot), keeping the horizontal scroll; the cursor keeps its place on
    /// screen, moved onto the new page.
    static func goToPage(_ state: inout EditorState, _ index: Int, _ env: EditorEnvironment, toBottom: Bool = false) {
        let target = min(max(0, index), state.document.pageCount - 1)
        guard target != state.pageIndex else { return }
        let before = view(state, env)
        let onScreen = Point(x: state.cursor.x - before.scroll.x, y: state.cursor.y - before.scroll.y)
        state.pageIndex = target
        state.selection = nil
        state.interaction.textSelection = nil
        // How far the new page scrolls depends on its size only, not on where the old one was scrolled.
        let limit = view(state, env).limit
        state.scroll = Point(x: min(before.scroll.x, limit.x), y: toBottom ? limit.y : 0)
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, state.scroll.x + onScreen.x), size.width),
                             y: min(max(0, state.scroll.y + onScreen.y), size.height))
        layOutTextIfShown(&state)
        revealCursor(&state, env)
        sayIfTextViewHasNoText(&state)
    }

    static let zoomSteps: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8]

    private static func zoom(_ state: inout EditorState, in zoomIn: Bool, _ env: EditorEnvironment) {
        let current = state.effectiveZoom(cellPixels: env.cellPixels)
        let next = zoomIn ? zoomSteps.first { $0 > current + 1e-9 } : zoomSteps.last { $0 < current - 1e-9 }
        guard let next else { return }
        state.view.beforeSmartZoom = nil
        state.zoom = next
        state.view.fitsWidth = false
        revealCursor(&state, env)
    }

    private static func arrow(_ state: inout EditorState, dx: Double, dy: Double, large: Bool,
                              _ env: EditorEnvironment) -> [EditorEffect] {
        let step = large ? 10.0 : 1.0
        if let annotation = state.selectedFileAnnotation {
            guard permits(&state, .transformAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) else { return [] }
            return nudgeAnnotation(&state, annotation, dx: dx * step, dy: dy * step)
        }
        if let id = state.selection, let item = state.markup.item(id) {
            guard permits(&state, .transformAnnotation, on: item, env, at: middle(of: item, env)) else { return [] }
            return nudgeSelection(&state, dx: dx * step, dy: dy * step, env)
        }
        if state.showsTextView {
            // In the text view the cursor goes by a character or a line, as in any text, through the columns as
            // placed on screen; the view follows.
            let viewport = state.viewport(cellPixels: env.cellPixels)
            let at = viewport.cell(for: state.cursor), cells = large ? 8 : 1
            // Within the cells the text view has: the page's, and as far as pushed words reach.
            let first = viewport.firstCell
            let extent = state.textLayout?.extent ?? (columns: Int.max / 2, rows: Int.max / 2)
            let column = min(max(at.column + Int(dx) * cells, -first.column), extent.columns - 1 - first.column)
            let row = min(max(at.row + Int(dy) * cells, -first.row), extent.rows - 1 - first.row)
            let target = viewport.point(forCellColumn: column, row: row)
            state.cursor = Point(x: min(max(0, target.x), state.pageSize.width), y: min(max(0, target.y), state.pageSize.height))
            revealCursor(&state, env)
            return []
        }
        let cell = state.viewport(cellPixels: env.cellPixels).pointsPerCell
        // Plain arrows scroll a page larger than the screen; where it cannot scroll that way they move the
        // cursor, as they do on a page that fits.
        if !large, scroll(&state, dx: dx * cell.width * scrollColumns, dy: dy * cell.height * scrollRows, env) {
            return []
        }
        let cells = large ? 8.0 : 1.0
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, state.cursor.x + dx * cell.width * cells), size.width),
                             y: min(max(0, state.cursor.y + dy * cell.height * cells), size.height))
        revealCursor(&state, env)
        return []
    }

    /// Scrolls just enough that the cursor's cell is inside the page area.
    static func revealCursor(_ state: inout EditorState, _ env: EditorEnvironment) {
        if state.showsTextView {
            revealCursorInText(&state, env)
            return
        }
        let view = view(state, env)
        let (cell, visible) = (view.cell, view.visible)
        var scroll = view.scroll
        if state.cursor.x < scroll.x { scroll.x = state.cursor.x }
        if state.cursor.x + cell.width > scroll.x + visible.width { scroll.x = state.cursor.x + cell.width - visible.width }
        if state.cursor.y < scroll.y { scroll.y = state.cursor.y }
        if state.cursor.y + cell.height > scroll.y + visible.height { scroll.y = state.cursor.y + cell.height - visible.height }
        state.scroll = Point(x: max(0, scroll.x), y: max(0, scroll.y))
    }

    // MARK: Selection

    /// Markup on the current page in reading order: top to bottom, then left to right.
    static func readingOrder(_ state: EditorState, _ env: EditorEnvironment) -> [MarkupItem] {
        // Equal places keep the order the markup was made in.
        state.markup.items(onPage: state.pageIndex).enumerated().sorted {
            let a = $0.element.bounds(measuredBy: env.measurer), b = $1.element.bounds(measuredBy: env.measurer)
            return (a.minY, a.minX, $0.offset) < (b.minY, b.minX, $1.offset)
        }.map(\.element)
    }

    /// Tab and S-Tab: the next markup in reading order that `selectAnnotation`'s conditions let be selected
    /// (ink made unselectable is passed over, not stopped at).
    private static func cycleSelection(_ state: inout EditorState, forward: Bool, _ env: EditorEnvironment) {
        let all = readingOrder(state, env)
        // After the session's markup, the annotations the file has, under the same conditions. Conditions are asked
        // from the current one on, only as far as the next they allow: a page of 20,000 annotations is not gone
        // through at every Tab.
        let allAnnotations = selectableAnnotations(state)
        let total = all.count + allAnnotations.count
        func allowed(_ position: Int) -> Bool {
            if position < all.count {
                let item = all[position]
                return item.id == state.selection
                    || conditionsHold(.selectAnnotation, context(.selectAnnotation, state, annotation: subject(item, state, env)), state, middle(of: item, env), env)
            }
            let annotation = allAnnotations[position - all.count]
            return annotation.id == state.interaction.selectedAnnotation
                || conditionsHold(.selectAnnotation, context(.selectAnnotation, state, annotation: InteractionSubject(annotation)),
                                  state, middle(of: annotation), env)
        }
        let current = state.selection.flatMap { id in all.firstIndex { $0.id == id } }
            ?? state.interaction.selectedAnnotation.flatMap { id in allAnnotations.firstIndex { $0.id == id }.map { all.count + $0 } }
        // After a deletion, Tab goes on from the place of what was deleted.
        let resume = state.interaction.tabResumesAt.flatMap { $0.page == state.pageIndex && current == nil ? all.count + $0.index : nil }
        state.interaction.tabResumesAt = nil
        let step = forward ? 1 : -1
        // Resuming, Tab starts at the one now in the deleted one's place, S-Tab at the one before it.
        var position = current ?? resume.map { forward ? $0 - 1 : $0 } ?? (forward ? -1 : total)
        var next: Int?
        var passedOver: [Int] = []
        for _ in 0..<total {
            position = ((position + step) % total + total) % total
            if allowed(position) {
                next = position
                break
            }
            passedOver.append(position)
        }
        guard let next else {
            if let first = all.first {
                // Said about the first the conditions refuse.
                _ = permits(&state, .selectAnnotation, on: first, env, at: middle(of: first, env))
            } else if let first = allAnnotations.first {
                _ = permits(&state, .selectAnnotation, onAnnotation: first, env, at: middle(of: first))
            } else {
                state.message = "No markup or annotations on this page"
            }
            return
        }
        // What Tab passed over because its conditions refuse it is reported, as a click on it would be.
        if resume == nil {
            for position in passedOver {
                if position < all.count {
                    let item = all[position]
                    reportPassedOver(&state, context(.selectAnnotation, state, annotation: subject(item, state, env)), at: middle(of: item, env), env)
                } else {
                    let annotation = allAnnotations[position - all.count]
                    reportPassedOver(&state, context(.selectAnnotation, state, annotation: InteractionSubject(annotation)),
                                     at: middle(of: annotation), env)
                }
            }
        }
        guard next < all.count else {
            let annotation = allAnnotations[next - all.count]
            if permits(&state, .selectAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) {
                selectAnnotation(&state, annotation)
            }
            return
        }
        let chosen = all[next]
        if permits(&state, .selectAnnotation, on: chosen, env, at: middle(of: chosen, env)) {
            state.selection = chosen.id
        }
    }

    static func startEditingSelection(_ state: inout EditorState, _ env: EditorEnvironment, at location: InteractionLocation? = nil) {
        guard let id = state.selection, let item = state.markup.item(id) else { return }
        switch item.content {
        case .text(let text):
            guard permits(&state, .editAnnotation, on: item, env, at: location ?? middle(of: item, env)) else { return }
            state.interaction.activity = .typing(TextDraft(editing: id, id: id, pageIndex: item.pageIndex, markup: text))
        case .ink, .textMarks, .shape:
            // Enter on an ink, a mark or a shape writes a comment on it, as on a highlight in Acrobat.
            guard permits(&state, .editAnnotation, on: item, env, at: location ?? middle(of: item, env)) else { return }
            state.interaction.activity = .commenting(CommentDraft(markup: id, text: item.comment ?? ""))
        }
    }
}
