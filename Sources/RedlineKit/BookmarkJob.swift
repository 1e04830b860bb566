import Foundation
import PDFAssembly
import RedlineCore
import TerminalGrid

/// `redline bookmarks`: list, add and remove bookmarks through the configured providers, saving through
/// the same saver as the editor.
public struct BookmarkJob {
    public var input: String
    public var password: String?
    public var setup: BookmarkSetup
    /// Appended to the original's bytes where that is right, or written anew.
    public var strategy = SaveStrategy.append
    /// Told how a copy was written, with the document it was made from.
    public var written: (WriteOutcome, DocumentDescription) -> Void = { _, _ in }

    public init(input: String, password: String?, setup: BookmarkSetup) {
        self.input = input
        self.password = password
        self.setup = setup
    }

    /// `readingAnnotations: false` for listing, which never looks at them; a save keeps them.
    public func describe(readingAnnotations: Bool = true) throws -> DocumentDescription {
        try setup.describe(try MarkupApplication.describe(input, password: password, readingAnnotations: readingAnnotations,
                                                          readingOutline: setup.inOutline), path: input)
    }

    /// The bookmarks, read from the document's metadata (and the sidecar). Its pages are counted only when a
    /// bookmark is placed on one, and then by the page tree itself, as every other command counts them: the count
    /// its root states may be wrong, and would hide bookmarks or show some on pages the file has not.
    public func list() throws -> (bookmarks: BookmarkList, problems: [String]) {
        var sources = try PDFInspector.bookmarkSources(path: input, password: password, readingOutline: setup.inOutline)
        var anyPage = sources
        anyPage.pageCount = Int.max
        let unplaced = try setup.list(anyPage, path: input)
        guard unplaced.bookmarks.bookmarks.contains(where: { $0.pageIndex != nil }) else { return unplaced }
        sources.pageCount = try MarkupApplication.describe(input, password: password, readingAnnotations: false).pageCount
        return try setup.list(sources, path: input)
    }

    public static func json(_ bookmarks: [Bookmark]) -> String {
        let objects: [[String: Any]] = bookmarks.map { bookmark in
            ["id": bookmark.id, "page": bookmark.pageIndex.map { $0 + 1 } as Any? ?? NSNull(),
             "name": bookmark.name as Any? ?? NSNull()]
        }
        // Foundation writes an empty array pretty as a line break between its brackets.
        guard !objects.isEmpty else { return "[]" }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data("[]".utf8)
        return VisibleText.json(String(decoding: data, as: UTF8.self))
    }

    /// Writes a copy with the page bookmarked (named, when a name is given); a page already bookmarked
    /// keeps its bookmark and takes the new name.
    @discardableResult
    public func add(page pageIndex: Int, name: String?, output: String, description known: DocumentDescription? = nil)
        throws -> Bookmark {
        let description = try known ?? describe()
        var list = description.bookmarks
        let bookmark: Bookmark
        if let existing = list.bookmarks(onPage: pageIndex).first {
            bookmark = name.map { existing.renamed($0) } ?? existing
        } else {
            bookmark = Bookmark(id: UUID().uuidString, pageIndex: pageIndex, name: name, sortKey: 0)
        }
        list.put(bookmark)
        try save(list, description: description, output: output)
        return bookmark
    }

    /// Writes a copy without the page's bookmarks; false when the page had none (nothing is written).
    public func remove(page pageIndex: Int, output: String, description known: DocumentDescription? = nil) throws -> Bool {
        let description = try known ?? describe()
        var list = description.bookmarks
        let doomed = list.bookmarks(onPage: pageIndex)
        guard !doomed.isEmpty else { return false }
        for bookmark in doomed { list.remove(bookmark.id) }
        try save(list, description: description, output: output)
        return true
    }

    private func save(_ list: BookmarkList, description: DocumentDescription, output: String) throws {
        let outcome = try DocumentSaver(services: RedlineServices()).save(
            DocumentEdits(bookmarks: list), source: input, password: password, description: description,
            bookmarks: try setup.manager(for: description, path: input), to: output, strategy: strategy)
        written(outcome, description)
    }
}
