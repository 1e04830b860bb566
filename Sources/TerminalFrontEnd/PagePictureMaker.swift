import RedlineKit
import CellPictures
import Editor
import PDFRendering
import RedlineCore
import TerminalGrid

/// Turns a page scene into cells: the page is rendered once per page and scale and kept; markup is
/// composited over a copy, and chafa picks the cells. A scene equal to the last one costs nothing.
public final class PagePictureMaker {
    private let renderer: any PageRenderer
    private let compositor: SceneCompositor
    private let encoder: any CellEncoder
    private var rasters: [RasterKey: PageRaster] = [:]
    private var rasterOrder: [RasterKey] = []
    private var lastScene: PageScene?
    private var lastPicture: CellGrid?
    /// How many page renders this maker has done: a nudge must not add one.
    public private(set) var renderCount = 0

    private struct RasterKey: Hashable {
        let page: Int
        let scale: Double
    }

    private let cachedRasters = 6

    public convenience init(renderer: any PageRenderer, services: RedlineServices, depth: ColorDepth) {
        self.init(renderer: renderer, services: services, encoder: ChafaCellEncoder(depth: depth))
    }

    public init(renderer: any PageRenderer, services: RedlineServices, encoder: any CellEncoder) {
        self.renderer = renderer
        compositor = SceneCompositor(painter: services.painter)
        self.encoder = encoder
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
                             viewport: scene.viewport, markup: scene.markup, highlight: scene.highlight)
    }

    private func raster(page: Int, scale: Double) -> PageRaster {
        let key = RasterKey(page: page, scale: scale)
        if let known = rasters[key] { return known }
        let raster = renderer.render(page: page, scale: scale)
        renderCount += 1
        rasters[key] = raster
        rasterOrder.append(key)
        if rasterOrder.count > cachedRasters {
            rasters[rasterOrder.removeFirst()] = nil
        }
        return raster
    }
}
