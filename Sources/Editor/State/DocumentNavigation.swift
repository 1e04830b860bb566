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

    public init() {}

    /// Whether the runner should read a page's links.
    public func needsLinks(onPage index: Int) -> Bool { links[index] == nil }
    public func needsWords(onPage index: Int) -> Bool { words[index] == nil }
}
