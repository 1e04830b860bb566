import Foundation
import RedlineCore

/// What the reducer may consult but not change: text measurement, the pixel size of a cell, and the clock
/// and name source that stamp new annotations (fixed in tests, so every run gives the same state).
public struct EditorEnvironment: Sendable {
    public var measurer: any TextMeasuring
    public var cellPixels: CellPixelSize
    public var now: @Sendable () -> PDFDate
    public var newAnnotationID: @Sendable () -> AnnotationID

    public init(measurer: any TextMeasuring, cellPixels: CellPixelSize = .standard,
                now: @escaping @Sendable () -> PDFDate = { PDFDate(Date(), timeZone: .current) },
                newAnnotationID: @escaping @Sendable () -> AnnotationID = { AnnotationID(UUID().uuidString) }) {
        self.measurer = measurer
        self.cellPixels = cellPixels
        self.now = now
        self.newAnnotationID = newAnnotationID
    }

    var stamp: ThreadEditing.Stamp { ThreadEditing.Stamp(date: now(), id: newAnnotationID()) }
}
