import RedlineCore

/// What the reducer may consult but not change: text measurement and the pixel size of a cell.
public struct EditorEnvironment: Sendable {
    public var measurer: any TextMeasuring
    public var cellPixels: CellPixelSize

    public init(measurer: any TextMeasuring, cellPixels: CellPixelSize = .standard) {
        self.measurer = measurer
        self.cellPixels = cellPixels
    }
}
