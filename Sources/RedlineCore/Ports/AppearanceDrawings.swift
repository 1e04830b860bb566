import Foundation

/// What the painter drew for annotations, as the writer takes it: PDF documents whose every page is one annotation's
/// drawing, the size of the annotation's page (the appearance's box picks the drawing out of it). Many annotations
/// share one document, so what their drawings share (a font) is embedded once and the writer parses one file, not
/// one per annotation: 100,000 annotations imported from XFDF were 60,000 documents and 60,000 copies of a font.
public struct AppearanceDrawings: Sendable, Equatable {
    public struct Place: Sendable, Hashable {
        public let document: Int
        public let page: Int
    }

    public private(set) var documents: [Data] = []
    /// How many drawings each document holds: a writer done with all of them lets the document go.
    public private(set) var pageCounts: [Int] = []
    private var places: [AnnotationID: Place] = [:]

    /// The most drawings one document holds. A reader keeps what it parsed of a document until it is let go: 60,000
    /// drawings in one took qpdf 176 MiB; in documents of this many, each embeds what they share once.
    public static let pagesPerDocument = 4096

    public init() {}

    public var isEmpty: Bool { places.isEmpty }
    public var count: Int { places.count }

    /// Where the drawing of `id` is; nil when none was drawn.
    public func place(of id: AnnotationID) -> Place? { places[id] }

    public func contains(_ id: AnnotationID) -> Bool { places[id] != nil }

    /// `document`'s pages are the drawings of `ids`, in their order.
    public mutating func add(_ document: Data, drawing ids: [AnnotationID]) {
        guard !ids.isEmpty else { return }
        documents.append(document)
        pageCounts.append(ids.count)
        for (page, id) in ids.enumerated() { places[id] = Place(document: documents.count - 1, page: page) }
    }

    /// These and `other`'s; `other`'s drawing wins for an annotation both drew.
    public mutating func merge(_ other: AppearanceDrawings) {
        let offset = documents.count
        documents += other.documents
        pageCounts += other.pageCounts
        for (id, place) in other.places { places[id] = Place(document: place.document + offset, page: place.page) }
    }
}
