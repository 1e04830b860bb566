import RedlineCore

/// What the runner read of the document for getting around it: the outline (nil until read) and each visited
/// page's links. They arrive as events, since reading them is I/O.
public struct DocumentNavigation: Sendable, Equatable {
    public var outline: [OutlineEntry]?
    public var links: [Int: [PageLink]] = [:]
    /// Each shown page's words, for selecting text and smart zoom.
    public var words: [Int: [PageWord]] = [:]
    /// The text view's layout of each page shown in it; none for a page without text.
    public var textLayouts: [Int: PageTextLayout] = [:]
    /// The outline entries the reviewer unfolded (or folded), kept when the outline panel closes: opened again, it
    /// shows the tree as it was left. Nil until it is first opened (then the file's own /Count says what is open).
    public var unfoldedOutline: Set<[Int]>?
    /// Pages not drawn, read or searched, and why: their content would keep poppler busy for ever.
    public var notDrawn: [Int: String] = [:]

    /// The pages whose links and words are kept, most recently read last: a long document paged through keeps
    /// only these, and a page read again later is read again (a few milliseconds).
    public private(set) var recentPages: [Int] = []
    public static let keptPages = 24

    public init() {}

    /// Notes that a page's links or words were read; forgets the least recent page's beyond `keptPages`.
    public mutating func touch(_ page: Int) {
        recentPages.removeAll { $0 == page }
        recentPages.append(page)
        while recentPages.count > Self.keptPages {
            let forgotten = recentPages.removeFirst()
            links[forgotten] = nil
            words[forgotten] = nil
            textLayouts[forgotten] = nil
        }
    }

    /// Whether the runner should read a page's links.
    public func needsLinks(onPage index: Int) -> Bool { links[index] == nil }
    public func needsWords(onPage index: Int) -> Bool { words[index] == nil }
}
