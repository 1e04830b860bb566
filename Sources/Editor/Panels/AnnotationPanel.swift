import RedlineCore

/// The annotation list beside the page (`a`): which annotations it shows, which one is selected, and what
/// the user is typing into it.
public struct AnnotationPanel: Sendable, Equatable {
    public enum Scope: Sendable, Equatable {
        case page
        case document
    }

    public var scope: Scope = .page
    /// Links and form widgets are parts of the document, not comments: hidden unless asked for (`w`).
    public var includesLinksAndWidgets = false
    /// Which threads the list shows (`f`); a summary (`S`) writes the same.
    public var filter = CommentFilter()
    public var list = PanelList<AnnotationID>()
    public var selected: AnnotationID? {
        get { list.selected }
        set { list.selected = newValue }
    }
    /// Enter shows the selected annotation's whole thread with full texts.
    public var showsThread = false
    /// Lines scrolled past in the thread view.
    public var threadScroll = 0
    public var input: PanelInput?
    /// When a reply or an edit being typed started, and the name the reply will have: what the crash journal
    /// stamps it with if the editor dies before Enter.
    public var draftStamp: ThreadEditing.Stamp?
    /// Opened from the page only to edit an annotation's words: it closes when the edit ends, and the page has
    /// the keyboard again.
    public var closesAfterInput = false

    public init(scope: Scope = .page) {
        self.scope = scope
    }
}

/// Text or a choice being entered in the panel.
public enum PanelInput: Sendable, Equatable {
    case reply(to: AnnotationID, text: String)
    case edit(AnnotationID, text: String)
    case choosingState(AnnotationID)
    /// The filter being typed, as words: `author:ann kind:highlight state:accepted page:3-7 unanswered`.
    case filtering(text: String)
    /// Where the comment summary goes; its extension chooses the format.
    case summaryPath(text: String)
}

/// One line-group of the list: an annotation, indented when it answers another.
public struct AnnotationListRow: Sendable, Equatable {
    public var annotation: Annotation
    /// 0 for an annotation that answers nothing, 1 for its replies and state changes.
    public var depth: Int
    /// "Accepted — Alice": the state in force on this annotation, if any.
    public var stateSummary: String?
    /// Annotations grouped with this one (/RT /Group): one comment with it, as Acrobat's "replace text" is a caret
    /// and a strike-out.
    public var grouped: [Annotation] = []

    /// What the row calls the comment: "Replace text" for a caret grouped with a strike-out, else the subtypes.
    public var kind: String {
        let subtypes = Set(([annotation] + grouped).map(\.subtype))
        if !grouped.isEmpty, subtypes == [.caret, .strikeOut] { return "Replace text" }
        return ([annotation] + grouped).map(\.subtype.label).joined(separator: " + ")
    }

    /// The comment's first line of text: the first of the group that has one (a replacement is the caret's words).
    public var firstLine: String {
        ([annotation] + grouped).map(\.firstLine).first { !$0.isEmpty } ?? ""
    }

    /// Rows the entry takes in the list: what, who and when, then the text; a state change is one line.
    public var height: Int { annotation.isStateChange && annotation.state != nil ? 1 : 2 }
}

extension EditorState {
    /// The panel's rows: each thread's annotation, then its replies and state changes oldest first. With
    /// thread actions turned off, only the annotations themselves, without replies or states.
    public func annotationRows(_ panel: AnnotationPanel) -> [AnnotationListRow] {
        editing.annotationRows(listing(panel)) { annotationRowsNow(panel) }.rows
    }

    private func listing(_ panel: AnnotationPanel) -> AnnotationsMemo.Listing {
        AnnotationsMemo.Listing(scope: panel.scope, includesLinksAndWidgets: panel.includesLinksAndWidgets, filter: panel.filter,
                                pageIndex: pageIndex, threadActions: reviewer.threadActionsEnabled)
    }

    private func annotationRowsNow(_ panel: AnnotationPanel) -> [AnnotationListRow] {
        let threads = annotationThreads.filter { thread in
            (panel.includesLinksAndWidgets || !thread.root.subtype.isDocumentStructure)
                && (panel.scope == .document || thread.root.pageIndex == pageIndex) && panel.filter.keeps(thread)
        }.sorted { ($0.root.pageIndex, $0.root.order) < ($1.root.pageIndex, $1.root.order) }
        var rows: [AnnotationListRow] = []
        for thread in threads {
            let showsThreads = reviewer.threadActionsEnabled
            // What is grouped with the root is part of it, not an answer.
            let grouped = thread.replies.filter { $0.replyType == .group && $0.inReplyTo == thread.root.id }
            let groupedIDs = Set(grouped.map(\.id))
            rows.append(AnnotationListRow(annotation: thread.root, depth: 0,
                                          stateSummary: showsThreads ? thread.stateSummary(of: thread.root.id) : nil, grouped: grouped))
            guard showsThreads else { continue }
            for member in thread.answers where !groupedIDs.contains(member.id) {
                rows.append(AnnotationListRow(annotation: member, depth: 1,
                                              stateSummary: member.isStateChange ? nil : thread.stateSummary(of: member.id)))
            }
        }
        return rows
    }

    /// The list's entries as the shared list component moves over them, made with the rows.
    public func annotationEntries(_ panel: AnnotationPanel) -> ListEntries<AnnotationID> {
        editing.annotationRows(listing(panel)) { annotationRowsNow(panel) }.entries
    }

    /// The annotation named `id` as it will be saved.
    public func annotation(_ id: AnnotationID) -> Annotation? { editing.annotation(id) }

    /// Rows a side panel's list has below its title (also while the panel is being opened).
    var panelListHeight: Int {
        max(1, (ScreenLayout(columns: columns, rows: rows, withPanel: true).panel?.height ?? 2) - 1)
    }

    /// The thread holding an annotation.
    public func thread(containing id: AnnotationID) -> AnnotationThread? {
        annotationThreads.first { $0.members.contains { $0.id == id } }
    }
}
