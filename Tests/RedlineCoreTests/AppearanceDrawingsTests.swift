import Foundation
import RedlineCore
import Testing

/// Appearances drawn on another thread while the writer goes on: each annotation's place is known at once, a document
/// is waited for until it is drawn, and a drawing that failed is told to whoever needs it, never waited on for ever.
@Suite struct AppearanceDrawingsTests {
    private static let ids = (0..<(AppearanceDrawings.pagesPerDocument * 2 + 5)).map { AnnotationID("a\($0)") }

    @Test func placesAreKnownBeforeAnythingIsDrawn() {
        let drawings = AppearanceDrawings(drawing: Self.ids, in: DocumentsInProgress())
        #expect(drawings.count == Self.ids.count)
        #expect(drawings.pageCounts == [AppearanceDrawings.pagesPerDocument, AppearanceDrawings.pagesPerDocument, 5])
        let place = drawings.place(of: Self.ids[AppearanceDrawings.pagesPerDocument + 3])
        #expect(place?.document == 1 && place?.page == 3)
        #expect(drawings.place(of: AnnotationID("elsewhere")) == nil)
    }

    @Test func aDocumentIsWaitedForAndAFailureIsTold() throws {
        struct PainterFailed: Error {}
        let progress = DocumentsInProgress()
        let drawings = AppearanceDrawings(drawing: Self.ids, in: progress)
        let painter = Thread {
            progress.deliver(0, .success(Data("first".utf8)))
            progress.deliver(1, .failure(PainterFailed()))
            progress.deliver(2, .failure(PainterFailed()))
        }
        painter.start()
        #expect(try drawings.document(0) == Data("first".utf8))
        #expect(throws: PainterFailed.self) { try drawings.document(1) }
        var merged = AppearanceDrawings()
        #expect(throws: PainterFailed.self) { try merged.merge(drawings) }
    }

    @Test func drawingsInProgressMergeAsDrawn() throws {
        let progress = DocumentsInProgress()
        let drawings = AppearanceDrawings(drawing: Array(Self.ids.prefix(3)), in: progress)
        progress.deliver(0, .success(Data("drawn".utf8)))
        var merged = AppearanceDrawings()
        merged.add(Data("earlier".utf8), drawing: [AnnotationID("e")])
        try merged.merge(drawings)
        #expect(merged.documents == [Data("earlier".utf8), Data("drawn".utf8)])
        #expect(merged.place(of: Self.ids[2]).map { [$0.document, $0.page] } == [1, 2])
        #expect(try merged.document(1) == Data("drawn".utf8))
    }
}
