import Foundation

/// What the painter drew for annotations, as the writer takes it: PDF documents whose every page is one annotation's
/// drawing, the size of the annotation's page (the appearance's box picks the drawing out of it). Many annotations
/// share one document, so what their drawings share (a font) is embedded once and the writer parses one file, not
/// one per annotation: 100,000 annotations imported from XFDF were 60,000 documents and 60,000 copies of a font.
public struct AppearanceDrawings: Sendable, Equatable {
    public static func == (a: AppearanceDrawings, b: AppearanceDrawings) -> Bool {
        a.documents == b.documents && a.pageCounts == b.pageCounts && a.places == b.places && a.drawing === b.drawing
            && a.outlined == b.outlined
    }

    public struct Place: Sendable, Hashable {
        public let document: Int
        public let page: Int
    }

    /// The documents drawn; those of `drawing` are still being drawn, and are waited for in `document(_:)`.
    public private(set) var documents: [Data] = []
    private var drawing: DocumentsInProgress?
    /// How many drawings each document holds: a writer done with all of them lets the document go.
    public private(set) var pageCounts: [Int] = []
    private var places: [AnnotationID: Place] = [:]

    /// The most drawings one document holds. A reader keeps what it parsed of a document until it is let go: 60,000
    /// drawings in one took qpdf 176 MiB; in documents of this many, each embeds what they share once.
    public static let pagesPerDocument = 4096

    public init() {}

    /// Drawings of paths alone (shapes drawn from their keys, inks, highlights): the writer writes them as
    /// operators, with nothing for cairo to draw.
    public private(set) var outlined: [AnnotationID: OutlinedDrawing] = [:]

    public var isEmpty: Bool { places.isEmpty && outlined.isEmpty }
    public var count: Int { places.count + outlined.count }

    /// Where the drawing of `id` is; nil when none was drawn.
    public func place(of id: AnnotationID) -> Place? { places[id] }

    public func contains(_ id: AnnotationID) -> Bool { places[id] != nil || outlined[id] != nil }

    /// `id`'s appearance is `drawing`'s paths.
    public mutating func add(_ drawing: OutlinedDrawing, for id: AnnotationID) {
        places[id] = nil
        outlined[id] = drawing
    }

    /// `document`'s pages are the drawings of `ids`, in their order.
    public mutating func add(_ document: Data, drawing ids: [AnnotationID]) {
        guard !ids.isEmpty else { return }
        documents.append(document)
        pageCounts.append(ids.count)
        for (page, id) in ids.enumerated() { places[id] = Place(document: documents.count - 1, page: page) }
    }

    /// Drawings of `ids` in documents of `pagesPerDocument` in their order, which `progress` is given as each is drawn
    /// (on another thread): the writer takes the first while the next are drawn.
    public init(drawing ids: [AnnotationID], in progress: DocumentsInProgress) {
        drawing = progress
        for start in stride(from: 0, to: ids.count, by: Self.pagesPerDocument) {
            let part = ids[start..<min(ids.count, start + Self.pagesPerDocument)]
            pageCounts.append(part.count)
            for (page, id) in part.enumerated() { places[id] = Place(document: pageCounts.count - 1, page: page) }
        }
    }

    /// Document `index`, waiting for it when it is still being drawn; throws what stopped its drawing.
    public func document(_ index: Int) throws -> Data {
        if let drawing { return try drawing.document(index) }
        return documents[index]
    }

    /// These and `other`'s; `other`'s drawing wins for an annotation both drew.
    public mutating func merge(_ other: AppearanceDrawings) throws {
        let offset = pageCounts.count
        if let drawing {
            documents = try (0..<pageCounts.count).map { try drawing.document($0) }
            self.drawing = nil
        }
        documents += try (0..<other.pageCounts.count).map { try other.document($0) }
        pageCounts += other.pageCounts
        for (id, place) in other.places {
            places[id] = Place(document: place.document + offset, page: place.page)
            outlined[id] = nil
        }
        for (id, drawing) in other.outlined { add(drawing, for: id) }
    }
}

/// Documents drawn on another thread, handed over one by one as each is done.
public final class DocumentsInProgress: @unchecked Sendable {
    private let condition = NSCondition()
    private var done: [Int: Result<Data, any Error>] = [:]

    public init() {}

    /// Document `index` is drawn, or its drawing failed: whoever waits for it goes on.
    public func deliver(_ index: Int, _ result: Result<Data, any Error>) {
        condition.lock()
        done[index] = result
        condition.broadcast()
        condition.unlock()
    }

    public func document(_ index: Int) throws -> Data {
        condition.lock()
        defer { condition.unlock() }
        while done[index] == nil { condition.wait() }
        return try done[index]!.get()
    }
}
