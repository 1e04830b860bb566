import Foundation

/// What the editor and the command line need to know about an opened PDF, read once on open.
public struct DocumentDescription: Sendable, Hashable {
    public var pages: [PageGeometry]
    /// What the reader repaired on open (a broken xref table, say); empty for a sound file.
    public var repairs: [String]
    /// Pages of a repaired document whose content could not be read whole: blank or partial in any copy.
    public var damagedPages: [Int] = []
    public var isEncrypted: Bool
    /// Every annotation of every page except popups, in document order.
    public var annotations: [Annotation]
    /// False when the document's permissions forbid adding or changing annotations.
    public var allowsAnnotationChanges: Bool
    /// False when its permissions forbid other changes (its metadata, so its bookmarks, among them).
    public var allowsChanges = true
    /// The catalog's XMP packet, decoded.
    public var metadata: Data?
    /// Why the catalog's XMP packet could not be read at all (a compressed stream past the budget): it is then
    /// kept as it is, never rewritten.
    public var metadataProblem: String?
    /// The first half of the trailer's /ID, in hex: the document's identity across copies and saves.
    public var permanentID: String?
    /// The page numbers the document prints (`/PageLabels`), if it has any.
    public var pageLabels = PageLabels()
    /// The outline's folder of Redline's bookmarks, when it has one (`OutlineFolder`).
    public var outlineFolder: OutlineFolder?
    /// Pages listing more annotations than poppler makes a page with (by page index, how many): poppler refuses such a
    /// page and every page after it, so it draws from a copy in which these pages list none.
    public var crowdedPages: [Int: Int] = [:]
    /// Pages carrying a signature (a signed /Sig field's widget): burning markup into one changes what was signed.
    public var signedPages: Set<Int> = []
    /// Annotations a page may list for poppler to make it at all (Page.cc: "likely malformed").
    public static let mostAnnotationsPopplerDraws = 10_000
    /// The bookmarks every provider holds, merged (filled in by whoever knows the providers).
    public var bookmarks = BookmarkList()
    /// Why some bookmarks could not be read.
    public var bookmarkProblems: [String] = []

    public init(pages: [PageGeometry], repairs: [String] = [], isEncrypted: Bool = false, annotations: [Annotation] = [],
                allowsAnnotationChanges: Bool = true) {
        self.pages = pages
        self.repairs = repairs
        self.isEncrypted = isEncrypted
        self.annotations = annotations
        self.allowsAnnotationChanges = allowsAnnotationChanges
    }

    public var pageCount: Int { pages.count }

    /// What to say before markup on `pages` is burned in where a signature is: the signature itself stays valid (the
    /// save appends), but validators report those pages changed after signing. Nil when no such page is marked.
    public func signatureWarning(flattening pages: Set<Int>) -> String? {
        let signed = pages.intersection(signedPages).sorted()
        guard let first = signed.first else { return nil }
        let which = signed.count == 1 ? "page \(first + 1) carries" : "pages \(signed.map { "\($0 + 1)" }.joined(separator: ", ")) carry"
        return "\(which) a signature: validators will report \(signed.count == 1 ? "it" : "them") changed after signing (markup saved as annotations would not be)"
    }
    /// What a save that rewrote the document whole says when the document is signed: its signatures no longer verify
    /// (an appended save keeps them). Nil for an appended save or an unsigned document.
    public func signatureWarning(after outcome: WriteOutcome) -> String? {
        Self.signatureWarning(after: outcome, signedPages: signedPages)
    }

    /// The same, for a document known only by its signed pages.
    public static func signatureWarning(after outcome: WriteOutcome, signedPages: Set<Int>) -> String? {
        guard case .rewritten(let reason) = outcome, let first = signedPages.min() else { return nil }
        return "the signature on page \(first + 1) no longer verifies: the document was rewritten whole"
            + (reason == WriteOutcome.rewriteAsked ? " (save without --rewrite to keep it)" : "")
    }

    /// What flattening `pages` says when a signature sits on one of them.
    public static func signedPagesFlattened(_ pages: [Int]) -> String? {
        guard let first = pages.min() else { return nil }
        let which = pages.count == 1 ? "page \(first + 1) carries" : "pages \(pages.sorted().map { "\($0 + 1)" }.joined(separator: ", ")) carry"
        return "\(which) a signature: validators will report \(pages.count == 1 ? "it" : "them") changed after signing"
    }

    /// What a command that read the document says of the repairs that took: nil when it read as it stands.
    public static func repairNote(_ repairs: [String]) -> String? {
        repairs.isEmpty ? nil : "repaired to read it: " + repairs.joined(separator: "; ")
    }

    /// What a copy saved from a damaged document says: the pages it could not carry whole. Nil when none.
    public var damageWarning: String? {
        guard !damagedPages.isEmpty else { return nil }
        return "the original is damaged: \(repairs.first ?? "some pages could not be read whole")"
    }

    public var pageSizes: [Size] { pages.map(\.displaySize) }
}
