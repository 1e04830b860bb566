import Foundation
import RedlineCore

/// Everything the editor shows and edits. A value: `reduce` turns one into the next.
public struct EditorState: Sendable {
    public var documentPath: String
    public var document: DocumentDescription
    public var pageIndex: Int = 0
    /// 1 fits the page into the page area; above zooms in.
    public var zoom: Double = 1
    /// The display-space point at the top-left of the page area when the page is larger than the area.
    public var scroll: Point = .zero
    /// Where new markup goes, in the current page's display space.
    public var cursor: Point = Point(x: 72, y: 72)
    /// Markup to flatten and changes to the annotations, everything not yet saved.
    public var edits = DocumentEdits()
    /// The edits as last written; unsaved changes are the difference.
    public var savedEdits = DocumentEdits()
    public var history = EditHistory<DocumentEdits>()
    /// Who is reviewing, and whether replies and review states may be made at all.
    public var reviewer: Reviewer
    public var selection: MarkupID?
    public var mode: EditorMode = .normal
    /// Size and colour the next text markup gets.
    public var textStyle = TextStyle()
    /// Width and colour of each ink tool.
    public var inkStyle = InkStyle()
    /// The colours `c` cycles through (config.toml's `text_colors` and `highlighter_colors`).
    public var palettes = MarkupPalettes.standard {
        didSet {
            inkStyle = InkStyle(palettes: palettes)
            if !palettes.text.contains(textStyle.color) { textStyle.color = palettes.text[0] }
        }
    }
    /// A markup being dragged with the mouse, and where the pointer was.
    var mouseDrag: MouseDrag?
    public var message: String?
    public var columns: Int
    public var rows: Int
    /// Destinations this session wrote: writing one again needs no confirmation.
    public var writtenPaths: Set<String> = []
    public var quitAfterSave = false
    /// The order the bookmarks panel opens in.
    public var bookmarkOrder: BookmarkOrder = .custom
    /// Which key starts which command, per context: the standard keys with config.toml's `[keys.…]` over them.
    public var keymaps = Keymaps.standard
    /// Rows of the help overlay scrolled past.
    public var helpScroll = 0
    /// The markup a run of nudges is moving: a run counts as one undo step.
    var nudgeRun: MarkupID?

    public init(documentPath: String, document: DocumentDescription, columns: Int, rows: Int, pageIndex: Int = 0,
                reviewer: Reviewer = Reviewer(author: "unknown")) {
        self.reviewer = reviewer
        self.documentPath = documentPath
        self.document = document
        self.columns = columns
        self.rows = rows
        self.pageIndex = min(max(0, pageIndex), max(0, document.pageCount - 1))
        if document.repairs.isEmpty == false {
            message = "Repaired on open: " + document.repairs.joined(separator: "; ")
        } else if let problem = document.bookmarkProblems.first {
            message = "Bookmarks not read: " + problem
        }
    }

    public var isDirty: Bool { edits != savedEdits }

    /// What the crash journal must hold: the edits, and text still being typed or ink still being drawn as
    /// if they were committed, so a crash in the middle of either loses none of it.
    public var journalEdits: DocumentEdits {
        var journaled = edits
        switch mode {
        case .typing(let draft) where !draft.markup.text.isEmpty:
            if let id = draft.editing, let item = journaled.markup.item(id) {
                journaled.markup.replace(item.with(.text(draft.markup)))
            } else if draft.editing == nil {
                journaled.markup.add(pageIndex: draft.pageIndex, content: .text(draft.markup))
            }
        case .inking(let session) where session.tool != .eraser && !session.allStrokes.isEmpty:
            journaled.markup.add(pageIndex: session.pageIndex,
                                 content: .ink(inkStyle.markup(for: session.tool, strokes: session.allStrokes)))
        case .annotations(let panel):
            guard let stamp = panel.draftStamp else { break }
            switch panel.input {
            case .reply(let parentID, let text)?:
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, let parent = annotations.first(where: { $0.id == parentID }) else { break }
                journaled.annotations.reply(to: parent, text: trimmed, author: reviewer.author, at: stamp.date, id: stamp.id)
            case .edit(let id, let text)?:
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { break }
                journaled.annotations.changeContents(of: id, to: trimmed, at: stamp.date)
            default:
                break
            }
        default:
            break
        }
        return journaled
    }

    /// The markup part of the edits.
    public var markup: MarkupLayer {
        get { edits.markup }
        set { edits.markup = newValue }
    }

    /// The bookmarks as they will be saved: the providers', with this session's changes.
    public var bookmarks: BookmarkList { edits.bookmarks ?? document.bookmarks }

    /// The document's annotations as they will be saved: the file's, with this session's changes.
    public var annotations: [Annotation] { edits.annotations.applied(to: document.annotations) }
    public var fileName: String { documentPath.split(separator: "/").last.map(String.init) ?? documentPath }
    public var pageSize: Size { document.pages[pageIndex].displaySize }

    /// `NAME-marked.pdf` beside the original, NAME shortened where a file name would pass 255 bytes.
    public var defaultSavePath: String {
        let base = documentPath.lowercased().hasSuffix(".pdf") ? String(documentPath.dropLast(4)) : documentPath
        let folderEnd = base.lastIndex(of: "/").map { base.index(after: $0) } ?? base.startIndex
        var name = base[folderEnd...]
        while name.utf8.count + "-marked.pdf".utf8.count > 255 { name = name.dropLast() }
        return base[..<folderEnd] + name + "-marked.pdf"
    }
}

struct MouseDrag: Sendable, Hashable {
    var markup: MarkupID
    var last: Point
    var moved: Bool
}

public struct TextStyle: Sendable, Hashable {
    public var fontSize: Double = TextMarkup.defaultFontSize
    public var color: MarkupColor = .red

    public init() {}
}

/// The reviewer's name and settings, from `--author` and config.toml.
public struct Reviewer: Sendable, Hashable {
    public var author: String
    /// False (`replies = false`): the annotation list shows annotations but offers no thread actions.
    public var threadActionsEnabled: Bool

    public init(author: String, threadActionsEnabled: Bool = true) {
        self.author = author
        self.threadActionsEnabled = threadActionsEnabled
    }
}
