import RedlineCore

/// What the reducer may consult but not change: text measurement and the pixel size of a cell. Time and new
/// ids are not here: they come inside each event's stamp.
public struct EditorEnvironment: Sendable {
    public var measurer: any TextMeasuring
    public var cellPixels: CellPixelSize
    /// The interaction components: what may be selected, moved, edited and followed, and who is told.
    public var interactions: Interactions

    public init(measurer: any TextMeasuring, cellPixels: CellPixelSize = .standard, interactions: Interactions = Interactions()) {
        self.measurer = measurer
        self.cellPixels = cellPixels
        self.interactions = interactions
    }
}
