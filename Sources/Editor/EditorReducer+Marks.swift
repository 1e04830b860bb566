import RedlineCore
import TerminalGrid

/// What `m` or `'` waits for: the letter of the mark to set or go to.
public enum PendingMark: Sendable, Hashable {
    case set
    case go
}

/// Marks (`m a` sets, `' a` goes back, as in vim and zathura) and the reading place a document is opened at again.
extension EditorReducer {
    static func markKey(_ state: inout EditorState, _ pending: PendingMark, _ key: Key, _ env: EditorEnvironment) {
        guard case .character(let letter) = key, letter.isASCII, letter.isLetter || (pending == .go && (letter == "'" || letter == "`")) else {
            if key != .escape { state.message = "A mark is a letter, a–z or A–Z" }
            return
        }
        switch pending {
        case .set:
            state.view.marks[letter] = state.view.place
            state.message = "Mark \(letter): page \(state.pageIndex + 1)"
        case .go where letter == "'" || letter == "`":
            // `''`: back where the latest jump left, itself a jump, so `''` again comes back here, as vim's.
            guard let target = state.view.jumps.lastLeft, target.pageIndex < state.document.pageCount else {
                state.message = "No jump yet to go back from"
                return
            }
            state.view.jumps.record(state.view.place)
            show(&state, target, env)
        case .go:
            guard let place = state.view.marks[letter] else {
                state.message = "No mark \(letter): m\(letter) sets it"
                return
            }
            guard place.pageIndex < state.document.pageCount else {
                state.message = "Mark \(letter) is on page \(place.pageIndex + 1), past the document's end"
                return
            }
            state.view.jumps.record(state.view.place)
            show(&state, place, env)
            state.message = "Mark \(letter): page \(place.pageIndex + 1)"
        }
    }

    /// The page, zoom, view and marks the document was left at, as far as they fit it now: a page past its end
    /// (the file was changed since) is its last page, a zoom outside the zoom keys' range the nearest in it, and
    /// marks past the end are dropped.
    static func restore(_ state: inout EditorState, _ place: ReadingPlace, _ env: EditorEnvironment) {
        let pages = state.document.pageCount
        guard pages > 0 else { return }
        goToPage(&state, min(max(0, place.pageIndex), pages - 1), env)
        if place.zoom.isFinite, place.zoom > 0 {
            state.zoom = min(max(place.zoom, zoomSteps.first ?? 1), zoomSteps.last ?? 1)
        }
        state.view.fitsWidth = place.fitsWidth
        if place.showsText != state.view.showsText { toggleTextView(&state, env) }
        if place.scrollX.isFinite, place.scrollY.isFinite {
            state.scroll = Point(x: max(0, place.scrollX), y: max(0, place.scrollY))
        }
        state.view.marks = [:]
        for (name, mark) in place.marks {
            guard name.count == 1, let letter = name.first, letter.isASCII, letter.isLetter, (0..<pages).contains(mark.pageIndex),
                  mark.scrollX.isFinite, mark.scrollY.isFinite else { continue }
            state.view.marks[letter] = JumpList.Place(pageIndex: mark.pageIndex, scroll: Point(x: max(0, mark.scrollX), y: max(0, mark.scrollY)))
        }
        revealCursorOnScreen(&state, env)
    }

    /// The cursor brought into the part of the page shown, where a restored or marked view left it out.
    private static func revealCursorOnScreen(_ state: inout EditorState, _ env: EditorEnvironment) {
        let shown = view(state, env)
        state.scroll = shown.scroll
        let size = state.pageSize
        let inside = (shown.scroll.x...(shown.scroll.x + shown.visible.width)).contains(state.cursor.x)
            && (shown.scroll.y...(shown.scroll.y + shown.visible.height)).contains(state.cursor.y)
        if !inside {
            state.cursor = Point(x: min(shown.scroll.x + min(72, shown.visible.width / 4), size.width),
                                 y: min(shown.scroll.y + min(72, shown.visible.height / 4), size.height))
        }
    }
}

extension EditorState {
    /// Where the reader is now, as the next opening of this document restores it.
    public var readingPlace: ReadingPlace {
        ReadingPlace(pageIndex: pageIndex, zoom: zoom, fitsWidth: view.fitsWidth, showsText: view.showsText,
                     scrollX: scroll.x, scrollY: scroll.y,
                     marks: Dictionary(uniqueKeysWithValues: view.marks.map {
                         (String($0.key), ReadingPlace.Mark(pageIndex: $0.value.pageIndex, scrollX: $0.value.scroll.x, scrollY: $0.value.scroll.y))
                     }))
    }
}
