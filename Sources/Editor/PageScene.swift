import RedlineCore
import TerminalGrid

/// What the page area must show: the page at a scale and position, with its markup drawn over it.
/// The runner turns a scene into cells (render once per page and zoom, then composite markup);
/// equal scenes give equal cells, so an unchanged scene is not drawn again.
public struct PageScene: Sendable, Hashable {
    public var pageIndex: Int
    public var viewport: PageViewport
    /// Markup to draw over the page, in order, a text being typed included.
    public var markup: [MarkupItem]
    /// Annotations drawn over the page from their keys, under the markup: in a shared session, the shapes, notes and
    /// stamps others made or changed.
    public var sketches: [AnnotationSketch]
    /// Outlined to show what is selected, in display points.
    public var highlight: Rect?
    /// Places marked on the page that are not markup: search hits.
    public var marks: [PageMark]
    /// The page's annotations of the file moved or deleted in this session: the page itself is drawn with them so.
    public var annotationEdits: AnnotationEdits
    /// The page's colours turned dark (`I`, `recolor` in config.toml); nil: as printed.
    public var recolor: PageRecolor?

    public init(pageIndex: Int, viewport: PageViewport, markup: [MarkupItem], sketches: [AnnotationSketch] = [], highlight: Rect?,
                marks: [PageMark] = [], annotationEdits: AnnotationEdits = AnnotationEdits(), recolor: PageRecolor? = nil) {
        self.annotationEdits = annotationEdits
        self.recolor = recolor
        self.sketches = sketches
        self.pageIndex = pageIndex
        self.viewport = viewport
        self.markup = markup
        self.highlight = highlight
        self.marks = marks
    }
}

/// A place shown on the page, in display points, drawn as its kind is.
public struct PageMark: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A search hit: tinted.
        case hit
        /// The hit `n` and `N` stand on: tinted and outlined.
        case currentHit
        /// Words being selected.
        case selectedText
    }

    public var rect: Rect
    public var kind: Kind

    public init(rect: Rect, kind: Kind) {
        self.rect = rect
        self.kind = kind
    }
}

extension EditorState {
    /// Where an annotation of the file shows: a text box given new words or a new size is drawn again fitted to them
    /// (as `:w` writes it), so its outline follows; the others stay in their /Rect.
    func shownRect(of annotation: Annotation, _ environment: EditorEnvironment) -> Rect {
        guard annotation.subtype == .freeText, let item = MarkupAnnotations.redrawnItem(of: annotation, after: edits.annotations) else {
            return annotation.rect
        }
        return MarkupAnnotations.rect(for: item, measuredBy: environment.measurer)
    }

    public func scene(environment: EditorEnvironment) -> PageScene {
        let overlay = annotationOverlay
        var items = overlay.items + markup.items(onPage: pageIndex)
        var highlight: Rect?
        if case .typing(let draft) = interaction.activity, draft.pageIndex == pageIndex {
            let typed = MarkupItem(id: draft.id, pageIndex: pageIndex, content: .text(draft.markup))
            if let index = items.firstIndex(where: { $0.id == draft.editing }) {
                items[index] = typed
            } else {
                items.append(typed)
            }
            highlight = draft.markup.textBox(measuredBy: environment.measurer)
        } else if case .inking(let session) = interaction.activity, session.pageIndex == pageIndex,
                  let pending = session.pendingItem(inkStyle, live: true, text: textStyle) {
            // The strokes or the shape being drawn show live, before they become a markup.
            items.append(pending)
        } else if case .commenting(let draft) = interaction.activity, let note = draft.placing, note.pageIndex == pageIndex {
            // A note whose words are being typed shows where it will be.
            items.append(note)
        } else if let panel = interaction.annotationPanel, let id = panel.selected,
                  let annotation = annotation(id), annotation.pageIndex == pageIndex {
            // The selected annotation's area, outlined on the page.
            highlight = shownRect(of: annotation, environment)
        } else if let selection, let item = markup.item(selection), item.pageIndex == pageIndex {
            highlight = item.bounds(measuredBy: environment.measurer)
        } else if let annotation = selectedFileAnnotation {
            highlight = shownRect(of: annotation, environment)
        }
        return PageScene(pageIndex: pageIndex, viewport: viewport(cellPixels: environment.cellPixels),
                         markup: items, sketches: overlay.sketches, highlight: highlight, marks: searchMarks + selectionMarks,
                         annotationEdits: pageAnnotationEdits, recolor: view.recolors ? chrome.recolor : nil)
    }

    /// What of the annotations' changes the page picture itself is drawn with: the file's annotations moved or
    /// deleted here. In a shared session the page is the file's, and what the server changed of it is drawn over it.
    var pageAnnotationEdits: AnnotationEdits {
        guard let sharing else { return edits.annotations.shownChanges(onPage: pageIndex, of: document.annotations) }
        return edits.annotations.shownChanges(onPage: pageIndex, of: sharing.fileAnnotations, hiding: sharing.replacedFileNames)
    }

    /// A shared session's annotations the file does not draw (the server's, and the file's it changed), as the
    /// markup the painter draws over the page: no page is rendered again for a change someone made. In the text view,
    /// every annotation of the page, the file's too (a document fetched from the server holds the shared ones).
    var annotationOverlay: SharedOverlay {
        // The text view has no picture for poppler to draw the file's annotations into: it draws them all.
        let withFile = showsTextView
        guard withFile || sharing != nil else { return SharedOverlay() }
        let page = pageIndex
        return editing.sharedOverlay(onPage: page, withFileAnnotations: withFile) {
            let markupNames = sharing.map { sharing in Set(markup.items(onPage: page).map { sharing.sharedName($0.annotationName) }) } ?? []
            let all = annotations
            var overlay = SharedOverlay()
            // By index: filtering the elements would copy each of what can be tens of thousands.
            for index in all.indices where all[index].pageIndex == page {
                let id = all[index].id
                guard !markupNames.contains(id) else { continue }
                if !withFile, let sharing, sharing.fileNames.contains(id), !sharing.replacedFileNames.contains(id) { continue }
                if let item = MarkupAnnotations.item(for: all[index]) {
                    if item.drawsSomething { overlay.items.append(item) }
                } else if !all[index].isReply, let sketch = AnnotationSketch(all[index]) {
                    overlay.sketches.append(sketch)
                }
            }
            return overlay
        }
    }

    /// The words selected on this page, a box per line.
    var selectionMarks: [PageMark] {
        guard let selection = interaction.textSelection, selection.pageIndex == pageIndex,
              let words = navigation.words[pageIndex] else { return [] }
        let boxes = selection.range.filter { words.indices.contains($0) }.map { (line: words[$0].line, box: words[$0].box) }
        return TextMarks.lineRects(boxes).map { PageMark(rect: $0, kind: .selectedText) }
    }

    /// The search's hits on this page, the current one apart.
    var searchMarks: [PageMark] {
        guard let search = interaction.search, search.shown else { return [] }
        return search.hits(onPage: pageIndex).enumerated().flatMap { index, hit in
            let current = search.current == SearchSession.HitRef(pageIndex: pageIndex, index: index)
            return hit.boxes.map { PageMark(rect: $0, kind: current ? .currentHit : .hit) }
        }
    }
}

/// What a shared session draws over the page: annotations as markup, and those drawn from their keys.
struct SharedOverlay: Sendable, Equatable {
    var items: [MarkupItem] = []
    var sketches: [AnnotationSketch] = []
}
