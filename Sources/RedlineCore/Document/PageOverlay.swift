import Foundation
import RedlineCore

/// One page's markup, ready to burn in: a one-page PDF the size of the displayed page whose content is
/// the markup in display coordinates (y up), and the geometry of the page it goes onto.
public struct PageOverlay: Sendable {
    public var pageIndex: Int
    public var pdf: Data
    public var geometry: PageGeometry

    public init(pageIndex: Int, pdf: Data, geometry: PageGeometry) {
        self.pageIndex = pageIndex
        self.pdf = pdf
        self.geometry = geometry
    }
}
