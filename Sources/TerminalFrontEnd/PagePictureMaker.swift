import RedlineKit
import CellPictures
import Editor
import PDFRendering
import RedlineCore
import TerminalGrid

/// Turns a page scene into cells: the page is rendered once per page and scale and kept; markup is
/// composited over a copy, and chafa picks the cells. A scene equal to the last one costs nothing.
public final class PagePictureMaker {
    private let pageRenderer: any PageRenderer
    private let compositor: SceneCompositor
    private let encoder: any CellEncoder
    private var rasters: [RasterKey: PageRaster] = [:]
    private var rasterOrder: [RasterKey] = []
    private var lastScene: PageScene?
    private var lastPicture: CellGrid?
    /// How many page renders this maker has done: a nudge must not add one.
    public private(set) var renderCount = 0

    /// A page at a scale: what one render makes.
    public struct RasterKey: Hashable, Sendable {
        public let page: Int
        public let scale: Double
    }

    private let cachedRasters = 6

    public convenience init(renderer: any PageRenderer, services: RedlineServices, depth: ColorDepth) {
        self.init(renderer: renderer, services: services, encoder: ChafaCellEncoder(depth: depth))
    }

    public init(renderer: any PageRenderer, services: RedlineServices, encoder: any CellEncoder) {
        pageRenderer = renderer
        compositor = SceneCompositor(painter: services.painter)
        self.encoder = encoder
    }

    /// The raster a scene needs, when it has not been rendered yet: render it off the loop, then `store` it.
    public func missingRaster(for scene: PageScene) -> RasterKey? {
        let key = RasterKey(page: scene.pageIndex, scale: scene.viewport.scale)
        return rasters[key] == nil ? key : nil
    }

    /// A raster rendered elsewhere (the session's render thread) from this maker's renderer.
    public func store(_ raster: PageRaster, for key: RasterKey) {
        guard rasters[key] == nil else { return }
        renderCount += 1
        keep(raster, for: key)
    }

    public var renderer: any PageRenderer { pageRenderer }

    /// The picture drawn last, if it has the page area's size in cells: what stays on screen while the next
    /// page renders, instead of a blank page area.
    public func lastPicture(columns: Int, rows: Int) -> CellGrid? {
        guard let lastPicture, lastPicture.columns == columns, lastPicture.rows == rows else { return nil }
        return lastPicture
    }

    public func picture(for scene: PageScene) -> CellGrid {
        if scene == lastScene, let lastPicture { return lastPicture }
        let window = composite(scene)
        let picture = encoder.encode(pixels: window.pixels, width: window.width, height: window.height,
                                     stride: window.stride, columns: scene.viewport.columns, rows: scene.viewport.rows)
        lastScene = scene
        lastPicture = picture
        return picture
    }

    /// The page area's pixels for a scene, before they become cells.
    public func composite(_ scene: PageScene) -> PageRaster {
        compositor.composite(raster: raster(page: scene.pageIndex, scale: scene.viewport.scale),
                             viewport: scene.viewport, markup: scene.markup, highlight: scene.highlight,
                             hits: scene.marks.filter { $0.kind == .hit }.map(\.rect),
                             currentHit: scene.marks.filter { $0.kind == .currentHit }.map(\.rect),
                             selectedText: scene.marks.filter { $0.kind == .selectedText }.map(\.rect))
    }

    private func raster(page: Int, scale: Double) -> PageRaster {
        let key = RasterKey(page: page, scale: scale)
        if let known = rasters[key] { return known }
        let raster = pageRenderer.render(page: page, scale: scale)
        renderCount += 1
        keep(raster, for: key)
        return raster
    }

    private func keep(_ raster: PageRaster, for key: RasterKey) {
        rasters[key] = raster
        rasterOrder.append(key)
        if rasterOrder.count > cachedRasters {
            rasters[rasterOrder.removeFirst()] = nil
        }
    }
}
