import PDFRendering
import RedlineCore

/// The drawing parts every front end shares: one measurer, so the editor, the screen and the saved
/// file agree on every text's size.
public struct RedlineServices: Sendable {
    public let measurer: CairoTextMeasurer
    public let painter: MarkupPainter

    public init() {
        measurer = CairoTextMeasurer()
        painter = MarkupPainter(measurer: measurer)
    }
}
