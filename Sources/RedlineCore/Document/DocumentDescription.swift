/// What the editor and the command line need to know about an opened PDF, read once on open.
public struct DocumentDescription: Sendable, Hashable {
    public var pages: [PageGeometry]
    /// What the reader repaired on open (a broken xref table, say); empty for a sound file.
    public var repairs: [String]
    public var isEncrypted: Bool

    public init(pages: [PageGeometry], repairs: [String] = [], isEncrypted: Bool = false) {
        self.pages = pages
        self.repairs = repairs
        self.isEncrypted = isEncrypted
    }

    public var pageCount: Int { pages.count }
    public var pageSizes: [Size] { pages.map(\.displaySize) }
}
