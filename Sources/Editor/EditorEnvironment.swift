import RedlineCore

/// What the reducer may consult but not change: text measurement and the pixel size of a cell. Time and new
/// ids are not here: they come inside each event's stamp.
public struct EditorEnvironment: Sendable {
    public var measurer: any TextMeasuring
    public var cellPixels: CellPixelSize

    public init(measurer: any TextMeasuring, cellPixels: CellPixelSize = .standard) {
        self.measurer = measurer
        self.cellPixels = cellPixels
    }
}
