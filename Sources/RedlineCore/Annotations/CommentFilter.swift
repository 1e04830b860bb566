/// Which comment threads a list or a summary shows, as Acrobat's comment filter chooses them: by the author, the
/// kind and the review state of the comment a thread starts with, by page, and whether anyone has answered it.
/// Each criterion given narrows; several values of one criterion are alternatives (`author:alice author:bob`).
public struct CommentFilter: Sendable, Hashable {
    /// Authors, compared without case; empty keeps every author.
    public var authors: [String] = []
    /// Subtypes; empty keeps every kind.
    public var kinds: [AnnotationSubtype] = []
    /// Review states in force (`None` for a comment nobody has reviewed), and `Marked`/`Unmarked`.
    public var states: [AnnotationState] = []
    /// Page indexes, from 0; nil keeps every page.
    public var pages: ClosedRange<Int>?
    /// Only threads without a text reply (a state change is no answer).
    public var unansweredOnly = false

    public init(authors: [String] = [], kinds: [AnnotationSubtype] = [], states: [AnnotationState] = [],
                pages: ClosedRange<Int>? = nil, unansweredOnly: Bool = false) {
        self.authors = authors
        self.kinds = kinds
        self.states = states
        self.pages = pages
        self.unansweredOnly = unansweredOnly
    }

    public var isEmpty: Bool { self == CommentFilter() }

    public func keeps(_ thread: AnnotationThread) -> Bool {
        let root = thread.root
        if let pages, !pages.contains(root.pageIndex) { return false }
        if unansweredOnly, !thread.replies.isEmpty { return false }
        if !authors.isEmpty {
            let author = root.author ?? ""
            guard authors.contains(where: { $0.caseInsensitiveCompare(author) == .orderedSame }) else { return false }
        }
        if !kinds.isEmpty, !kinds.contains(root.subtype) { return false }
        if !states.isEmpty, !states.contains(where: { Self.holds($0, on: root.id, in: thread) }) { return false }
        return true
    }

    /// Whether `state` is the one in force on the annotation: a comment nobody reviewed is in Review's None, and
    /// one nobody marked is Unmarked, as Acrobat lists them.
    private static func holds(_ state: AnnotationState, on id: AnnotationID, in thread: AnnotationThread) -> Bool {
        let current = thread.currentState(of: id, model: state.model)?.state
            ?? (state.isIn(model: AnnotationState.markedModel) ? AnnotationState.unmarked : AnnotationState.none)
        return current.value.caseInsensitiveCompare(state.value) == .orderedSame
    }

    // MARK: - Written as words

    /// A criterion that cannot be read, said so the user can correct it.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The kinds a filter names, by the name lists show (`note`, `text box`, `strikeout`) or the PDF's own
    /// (`Text`, `FreeText`, `StrikeOut`), any case, spaces and hyphens ignored.
    public static func kind(named name: String) throws(Problem) -> AnnotationSubtype {
        let wanted = folded(name)
        if let kind = markupKinds.first(where: { folded($0.rawValue) == wanted || folded($0.label) == wanted }) { return kind }
        throw Problem("no kind of comment is called “\(name)”: one of " + markupKinds.map { folded($0.label) }.joined(separator: ", "))
    }

    /// A review state by name, any case: `accepted`, `rejected`, `cancelled`, `completed`, `none`, `marked`,
    /// `unmarked`.
    public static func state(named name: String) throws(Problem) -> AnnotationState {
        if let state = AnnotationState.named(name) { return state }
        throw Problem("no review state is called “\(name)”: one of " + AnnotationState.all.map { $0.value.lowercased() }.joined(separator: ", "))
    }

    /// Pages from 1, as users count them: `3` or `3-7`.
    public static func pages(_ text: String) throws(Problem) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int(String($0)) }
        guard let first = parts.first ?? nil, first >= 1, let last = parts.count == 2 ? parts[1] : first, last >= first else {
            throw Problem("“\(text)” is no page or range of pages (3, or 3-7, counting from 1)")
        }
        return (first - 1)...(last - 1)
    }

    /// `author:alice kind:highlight state:accepted page:3-7 unanswered`: what the list's filter prompt takes.
    /// Quotes keep spaces in a value (`author:"Ann Lee"`); words without a criterion, side by side, are one author's
    /// name (`Ann Lee`), as a user types it.
    public init(query: String) throws(Problem) {
        var bare: [String] = []
        func endName() {
            if !bare.isEmpty { authors.append(bare.joined(separator: " ")) }
            bare = []
        }
        for word in Self.words(query) {
            let value = word.value
            if word.key == nil, value.lowercased() != "unanswered" {
                bare.append(value)
                continue
            }
            endName()
            switch word.key?.lowercased() {
            case nil: unansweredOnly = true
            case "author"?, "by"?: authors.append(value)
            case "kind"?, "type"?: kinds.append(try Self.kind(named: value))
            case "state"?: states.append(try Self.state(named: value))
            case "page"?, "pages"?, "p"?: pages = try Self.pages(value)
            case let other?: throw Problem("“\(other):” is no filter: author:, kind:, state:, page: or unanswered")
            }
        }
        endName()
    }

    /// The filter as the prompt takes it back, for the list's title.
    public var query: String {
        var words: [String] = authors.map { "author:" + Self.quoted($0) }
        words += kinds.map { "kind:" + Self.folded($0.label) }
        words += states.map { "state:" + $0.value.lowercased() }
        if let pages { words.append("page:" + (pages.count == 1 ? "\(pages.lowerBound + 1)" : "\(pages.lowerBound + 1)-\(pages.upperBound + 1)")) }
        if unansweredOnly { words.append("unanswered") }
        return words.joined(separator: " ")
    }

    /// The kinds of comment a reviewer makes (ISO 32000-1 table 170's markup annotations).
    static let markupKinds: [AnnotationSubtype] = ["Text", "FreeText", "Highlight", "Underline", "Squiggly", "StrikeOut", "Caret",
                                                   "Ink", "Line", "Square", "Circle", "Polygon", "PolyLine", "Stamp",
                                                   "FileAttachment", "Sound", "Redact"]

    private static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
    }

    private static func quoted(_ value: String) -> String {
        value.contains(" ") || value.contains("\"") || value.isEmpty
            ? "\"" + value.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\"" : value
    }

    /// Words split at spaces outside double quotes; `\"` and `\\` inside quotes stand for themselves.
    private static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var key: String?
        var quoting = false
        var started = false
        var escaping = false
        func finish() {
            if started { words.append(Word(key: key, value: current)) }
            (current, key, started) = ("", nil, false)
        }
        for character in text {
            if escaping {
                current.append(character)
                escaping = false
            } else if quoting {
                if character == "\\" { escaping = true } else if character == "\"" { quoting = false } else { current.append(character) }
            } else if character == " " || character == "\t" {
                finish()
            } else if character == "\"" {
                quoting = true
                started = true
            } else if character == ":", key == nil, !current.isEmpty {
                key = current
                current = ""
                started = true
            } else {
                current.append(character)
                started = true
            }
        }
        finish()
        return words
    }

    private struct Word {
        var key: String?
        var value: String
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
