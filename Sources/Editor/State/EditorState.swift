import Foundation
import RedlineCore

/// Everything the editor shows and edits, in parts a feature can change on its own: the document and its
/// edits, the view of it, the tools, the interaction under way, and the screen around the page. A value:
/// `reduce` turns one into the next. The properties below the parts read and write into them, so code that
/// needs one field does not spell out which part holds it.
public struct EditorState: Sendable {
    public var editing: DocumentEditing
    public var view: Viewport
    public var tools: Tools
    public var interaction: Interaction
    public var chrome: ScreenChrome
    /// The outline and links the runner read.
    public var navigation = DocumentNavigation()
    /// Set in a shared session (`--collab`).
    public internal(set) var sharing: SharedReview?

    public init(documentPath: String, document: DocumentDescription, columns: Int, rows: Int, pageIndex: Int = 0,
                reviewer: Reviewer = Reviewer(author: "unknown")) {
        editing = DocumentEditing(documentPath: documentPath, document: document, reviewer: reviewer)
        view = Viewport(pageIndex: min(max(0, pageIndex), max(0, document.pageCount - 1)))
        tools = Tools()
        interaction = Interaction()
        chrome = ScreenChrome(columns: columns, rows: rows)
        if document.repairs.isEmpty == false {
            chrome.message = "Repaired on open: " + document.repairs.joined(separator: "; ")
        } else if let problem = document.bookmarkProblems.first {
            chrome.message = "Bookmarks not read: " + problem
        } else if let first = document.crowdedPages.keys.min(), let count = document.crowdedPages[first] {
            let more = document.crowdedPages.count - 1
            chrome.message = "Page \(first + 1)\(more > 0 ? " and \(more) more" : "") drawn without \(more > 0 ? "their" : "its") \(count) annotations: "
                + "poppler draws at most \(DocumentDescription.mostAnnotationsPopplerDraws) on a page (a lists them all)"
        }
    }

    // MARK: The parts' fields

    public var documentPath: String { editing.documentPath }
    /// Where `:w` puts its copy when the opened file is not one the user keeps (a shared document fetched into the
    /// cache by its id): the folder `redline` was started in. Nil: beside the original.
    public var copiesFolder: String?
    public var document: DocumentDescription {
        get { editing.document }
        set { editing.document = newValue }
    }
    public var edits: DocumentEdits { editing.edits }
    public var savedEdits: DocumentEdits { editing.savedEdits }
    public var reviewer: Reviewer { editing.reviewer }
    public var saveMode: MarkupSaveMode {
        get { editing.saveMode }
        set { editing.saveMode = newValue }
    }
    public var writtenPaths: Set<String> {
        get { editing.writtenPaths }
        set { editing.writtenPaths = newValue }
    }
    public var pageIndex: Int {
        get { view.pageIndex }
        set { view.pageIndex = newValue }
    }
    public var zoom: Double {
        get { view.zoom }
        set { view.zoom = newValue }
    }
    public var scroll: Point {
        get { view.scroll }
        set { view.scroll = newValue }
    }
    public var cursor: Point {
        get { view.cursor }
        set { view.cursor = newValue }
    }
    public var textStyle: TextStyle {
        get { tools.textStyle }
        set { tools.textStyle = newValue }
    }
    public var inkStyle: InkStyle {
        get { tools.inkStyle }
        set { tools.inkStyle = newValue }
    }
    public var palettes: MarkupPalettes {
        get { tools.palettes }
        set { tools.palettes = newValue }
    }
    public var selection: MarkupID? {
        get { interaction.selection }
        set {
            interaction.selection = newValue
            // One thing is selected at a time: a markup, or an annotation of the file.
            if newValue != nil { interaction.selectedAnnotation = nil }
        }
    }
    /// The selected annotation of the file, when it is still there and on the page shown.
    public var selectedFileAnnotation: Annotation? {
        guard let id = interaction.selectedAnnotation, let annotation = annotation(id), annotation.pageIndex == pageIndex else { return nil }
        return annotation
    }
    /// What has the keyboard: the top overlay, else the tool's work, else the side panel, else the page.
    public var focus: Focus { interaction.focus }
    var mouseDrag: MouseDrag? {
        get { interaction.mouseDrag }
        set { interaction.mouseDrag = newValue }
    }
    var nudgeRun: MarkupID? {
        get { interaction.nudgeRun }
        set { interaction.nudgeRun = newValue }
    }
    public var message: String? {
        get { chrome.message }
        set { chrome.message = newValue }
    }
    public var columns: Int {
        get { chrome.columns }
        set { chrome.columns = newValue }
    }
    public var rows: Int {
        get { chrome.rows }
        set { chrome.rows = newValue }
    }
    public var keymaps: Keymaps {
        get { chrome.keymaps }
        set { chrome.keymaps = newValue }
    }
    public var bookmarkOrder: BookmarkOrder {
        get { chrome.bookmarkOrder }
        set { chrome.bookmarkOrder = newValue }
    }
    public var quitAfterSave: Bool {
        get { chrome.quitAfterSave }
        set { chrome.quitAfterSave = newValue }
    }

    // MARK: Derived

    public var isDirty: Bool { editing.isDirty }

    /// The markup part of the edits.
    public var markup: MarkupLayer { edits.markup }

    /// The bookmarks as they will be saved: the providers', with this session's changes.
    public var bookmarks: BookmarkList { edits.bookmarks ?? document.bookmarks }

    /// The document's annotations as they will be saved: the file's, with this session's changes.
    public var annotations: [Annotation] { editing.annotations }

    /// The annotations' threads, made once per change of them.
    public var annotationThreads: [AnnotationThread] { editing.threads }
    public var fileName: String { documentPath.split(separator: "/").last.map(String.init) ?? documentPath }
    public var pageSize: Size { document.pages[pageIndex].displaySize }

    /// `NAME-comments.md` beside the original: where `S` in the annotation list offers to write the comment summary.
    public var defaultSummaryPath: String { besideDocument(suffix: "-comments.md", folder: nil) }

    /// `NAME-marked.pdf` beside the original (in `copiesFolder` when there is one), NAME shortened where a file name
    /// would pass 255 bytes.
    public var defaultSavePath: String { besideDocument(suffix: "-marked.pdf", folder: copiesFolder) }

    /// NAME`suffix` in `folder` or beside the document, NAME shortened where the file name would pass 255 bytes.
    private func besideDocument(suffix: String, folder: String?) -> String {
        let base = documentPath.lowercased().hasSuffix(".pdf") ? String(documentPath.dropLast(4)) : documentPath
        let folderEnd = base.lastIndex(of: "/").map { base.index(after: $0) } ?? base.startIndex
        var name = base[folderEnd...]
        while name.utf8.count + suffix.utf8.count > 255 { name = name.dropLast() }
        return (folder.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? String(base[..<folderEnd])) + name + suffix
    }

    // MARK: Time and ids

    /// A new id, derived from the event being reduced: the same events give the same ids.
    mutating func freshID() -> UUID { interaction.clock.mint() }

    /// When the event being reduced happened.
    var now: PDFDate { interaction.clock.stamp.time }

    /// A new annotation's stamp: the event's time and a fresh id.
    mutating func newAnnotationStamp() -> ThreadEditing.Stamp {
        ThreadEditing.Stamp(date: now, id: AnnotationID(freshID().uuidString))
    }
}

struct MouseDrag: Sendable, Hashable {
    var markup: MarkupID
    var last: Point
    var moved: Bool
    /// Whether transformAnnotation let this drag move the markup; nil until it starts moving.
    var allowed: Bool?
}

/// An annotation of the file being dragged with the mouse.
struct AnnotationDrag: Sendable, Hashable {
    var id: AnnotationID
    var last: Point
    /// Whether transformAnnotation let this drag move the annotation; nil until it starts moving.
    var allowed: Bool?
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
