import Foundation
import RedlineCore
import Synchronization

/// The annotations as they will be saved (the file's with this session's changes) and their threads, made once per
/// change of either, not at every ask: the list, the selection and each frame ask for them several times a key,
/// and making them is linear in the document's annotations (a list step took 330 ms with 20,000 comments).
/// Copies of a state share what was made; each knows by its token whether what is there is its own.
struct AnnotationsMemo: Sendable {
    private static let tokens = Atomic<UInt64>(0)
    private var token = AnnotationsMemo.newToken()
    private let made = Made()

    private final class Made: Sendable {
        let value = Mutex<Kept>(Kept(token: 0))
    }

    private struct Kept: Sendable {
        var token: UInt64
        var annotations: [Annotation]?
        var threads: [AnnotationThread]?
        /// What Tab and clicks select on one page, in their order.
        var selectable: (page: Int, annotations: [Annotation])?
        /// A shared session's annotations drawn over one page.
        var overlay: (page: Int, withFile: Bool, items: SharedOverlay)?
        /// The annotation list's rows for one way of listing them, and the entries the list moves over.
        var rows: (listing: Listing, rows: [AnnotationListRow], entries: ListEntries<AnnotationID>)?
        /// Where each annotation stands in `annotations`.
        var positions: [AnnotationID: Int]?
    }

    /// What the annotation list's rows depend on besides the annotations.
    struct Listing: Sendable, Hashable {
        var scope: AnnotationPanel.Scope
        var includesLinksAndWidgets: Bool
        var filter: CommentFilter
        var pageIndex: Int
        var threadActions: Bool
    }

    private static func newToken() -> UInt64 { tokens.add(1, ordering: .relaxed).newValue }

    /// What was made is out of date: the file's annotations or the session's changes to them changed.
    mutating func invalidate() { token = Self.newToken() }

    /// Lets go of what was made, so that the annotations it was made from are referenced once and can be changed
    /// in place.
    mutating func release() {
        invalidate()
        made.value.withLock { $0 = Kept(token: 0) }
    }

    /// What `read` finds kept under this state's token, else `make`'s value, kept by `keep` (what another token
    /// left is dropped first).
    private func kept<Value>(_ read: (Kept) -> Value?, _ keep: (inout Kept, Value) -> Void, _ make: () -> Value) -> Value {
        if let value = made.value.withLock({ $0.token == token ? read($0) : nil }) { return value }
        let value = make()
        made.value.withLock { kept in
            if kept.token != token { kept = Kept(token: token) }
            keep(&kept, value)
        }
        return value
    }

    func annotations(_ make: () -> [Annotation]) -> [Annotation] {
        kept({ $0.annotations }, { $0.annotations = $1 }, make)
    }

    func threads(of annotations: () -> [Annotation]) -> [AnnotationThread] {
        kept({ $0.threads }, { $0.threads = $1 }) { AnnotationThreads.build(self.annotations(annotations)) }
    }

    func selectable(onPage page: Int, _ make: () -> [Annotation]) -> [Annotation] {
        kept({ $0.selectable?.page == page ? $0.selectable?.annotations : nil }, { $0.selectable = (page, $1) }, make)
    }

    func overlay(onPage page: Int, withFileAnnotations withFile: Bool, _ make: () -> SharedOverlay) -> SharedOverlay {
        kept({ $0.overlay?.page == page && $0.overlay?.withFile == withFile ? $0.overlay?.items : nil },
             { $0.overlay = (page, withFile, $1) }, make)
    }

    func rows(_ listing: Listing, _ make: () -> [AnnotationListRow]) -> (rows: [AnnotationListRow], entries: ListEntries<AnnotationID>) {
        kept({ kept in kept.rows.flatMap { $0.listing == listing ? ($0.rows, $0.entries) : nil } }, { $0.rows = (listing, $1.rows, $1.entries) }) {
            let rows = make()
            return (rows, ListEntries(rows.map { ($0.annotation.id, $0.height) }))
        }
    }

    /// Where each of `annotations` stands, by id (the first, should two share one).
    func positions(of annotations: () -> [Annotation]) -> [AnnotationID: Int] {
        kept({ $0.positions }, { $0.positions = $1 }) {
            var positions: [AnnotationID: Int] = [:]
            let all = self.annotations(annotations)
            positions.reserveCapacity(all.count)
            for index in all.indices where positions[all[index].id] == nil { positions[all[index].id] = index }
            return positions
        }
    }
}
