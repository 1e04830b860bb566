import RedlineKit
import CellPictures
import Editor
import PDFRendering
import RedlineCore
import TerminalGrid

/// Turns a page scene into cells: the page is rendered once per page and scale and kept; markup is
/// composited over a copy, and chafa picks the cells. A scene equal to the last one costs nothing; one whose
/// markup alone changed (a nudge, a stroke growing) makes again only the cells that markup covered and covers.
public final class PagePictureMaker {
    private let pageRenderer: any PageRenderer
    private let compositor: SceneCompositor
    private let encoder: any CellEncoder
    let measurer: any TextMeasuring
    /// False in a pixel mode: the page goes to the terminal as pixels, so pages made ahead need no cells.
    var makesCells = true
    /// Used on the render thread only, for pages read ahead: chafa's canvases are not shared between threads.
    private let aheadEncoder: any CellEncoder
    /// Whole pictures of pages read ahead, by the scene they show.
    /// Two ahead (the next and the previous page) and the one just left are enough.
    private var aheadPictures = RecentlyKept<PageScene, CellGrid>(capacity: 3)
    private var rasters = RecentlyKept<RasterKey, PageRaster>(capacity: 6)
    private var lastScene: PageScene?
    private var lastPicture: CellGrid?
    /// How many page renders this maker has done: a nudge must not add one.
    public private(set) var renderCount = 0
    /// How many cells the last picture made again (all of them when the whole area was).
    public private(set) var lastEncodedCells = 0

    /// A page at a scale: what one render makes.
    public struct RasterKey: Hashable, Sendable {
        public let page: Int
        public let scale: Double
        /// The page's annotations of the file moved or deleted: the page is drawn with them so.
        public let annotationEdits: AnnotationEdits
        /// The page's colours turned dark (`I`); the markup drawn over it keeps its own.
        public let recolor: PageRecolor?

        public init(page: Int, scale: Double, annotationEdits: AnnotationEdits = AnnotationEdits(), recolor: PageRecolor? = nil) {
            self.page = page
            self.scale = scale
            self.annotationEdits = annotationEdits
            self.recolor = recolor
        }

        /// `recoloring` false: the page as printed, for cells recoloured once chafa has made them.
        public init(_ scene: PageScene, recoloring: Bool = true) {
            self.init(page: scene.pageIndex, scale: scene.viewport.scale, annotationEdits: scene.annotationEdits,
                      recolor: recoloring ? scene.recolor : nil)
        }

        /// The page as this key shows it: rendered, then recoloured when asked.
        public func render(with renderer: any PageRenderer) -> PageRaster {
            var raster = renderer.render(page: page, scale: scale, annotationEdits: annotationEdits)
            recolor?.apply(to: &raster)
            return raster
        }
    }


    public convenience init(renderer: any PageRenderer, services: RedlineServices, depth: ColorDepth) {
        self.init(renderer: renderer, services: services, encoder: ChafaCellEncoder(depth: depth),
                  aheadEncoder: ChafaCellEncoder(depth: depth))
        fewColors = depth == .palette16 || depth == .palette8
    }

    /// Cells are made for eight or sixteen colours: a dark page's cells keep ANSI colours.
    private(set) var fewColors = false

    public init(renderer: any PageRenderer, services: RedlineServices, encoder: any CellEncoder, aheadEncoder: (any CellEncoder)? = nil) {
        pageRenderer = renderer
        compositor = SceneCompositor(painter: services.painter)
        measurer = services.measurer
        self.encoder = encoder
        self.aheadEncoder = aheadEncoder ?? encoder
    }

    /// A page made ahead of need on the render thread: its raster (unless kept already) and its whole picture.
    /// Only a page shown bare (no markup, hits or outline to draw) is made ahead: drawing markup measures text,
    /// which stays on the loop's thread.
    public struct Prefetch: @unchecked Sendable {
        let scene: PageScene
        let key: RasterKey
        let raster: PageRaster?
        let renderer: any PageRenderer
        let compositor: SceneCompositor
        let encoder: any CellEncoder
        let makesCells: Bool
        let fewColors: Bool

        func make() -> (raster: PageRaster, picture: CellGrid) {
            let page = raster ?? key.render(with: renderer)
            guard makesCells else { return (page, CellGrid(columns: scene.viewport.columns, rows: scene.viewport.rows)) }
            let window = compositor.composite(raster: page, viewport: scene.viewport, markup: [], highlight: nil)
            var picture = encoder.encode(pixels: window.pixels, width: window.width, height: window.height,
                                         stride: window.stride, columns: scene.viewport.columns, rows: scene.viewport.rows)
            if let recolor = scene.recolor, let paper = PagePictureMaker.paper(of: scene.viewport) {
                picture.recolor(in: paper, recolor, keepingPalette: fewColors)
            }
            return (page, picture)
        }
    }

    /// What to make ahead for a scene likely next, or nil when it is made already, is not bare, or is a text view's.
    public func prefetch(for scene: PageScene) -> Prefetch? {
        guard scene.viewport.textColumns == nil, scene.markup.isEmpty, scene.sketches.isEmpty, scene.marks.isEmpty, scene.highlight == nil, aheadPictures[scene] == nil,
              scene != lastScene else { return nil }
        let key = key(for: scene)
        return Prefetch(scene: scene, key: key, raster: rasters[key], renderer: pageRenderer, compositor: compositor,
                        encoder: aheadEncoder, makesCells: makesCells, fewColors: fewColors)
    }

    /// A page made ahead: kept for when the reviewer turns to it. Not counted as a render of what is shown.
    public func storePrefetched(_ raster: PageRaster, picture: CellGrid, for scene: PageScene) {
        let key = key(for: scene)
        if rasters[key] == nil { rasters.keep(raster, for: key) }
        aheadPictures.keep(picture, for: scene)
    }

    /// The raster a scene needs, when it has not been rendered yet: render it off the loop, then `store` it.
    public func missingRaster(for scene: PageScene) -> RasterKey? {
        guard scene.viewport.textColumns == nil else { return nil }
        let key = key(for: scene)
        return rasters[key] == nil ? key : nil
    }

    /// A raster rendered elsewhere (the session's render thread) from this maker's renderer.
    public func store(_ raster: PageRaster, for key: RasterKey) {
        guard rasters[key] == nil else { return }
        renderCount += 1
        rasters.keep(raster, for: key)
    }

    public var renderer: any PageRenderer { pageRenderer }

    /// The picture drawn last, if it has the page area's size in cells: what stays on screen while the next
    /// page renders, instead of a blank page area.
    public func lastPicture(columns: Int, rows: Int) -> CellGrid? {
        guard let lastPicture, lastPicture.columns == columns, lastPicture.rows == rows else { return nil }
        return lastPicture
    }

    public func picture(for scene: PageScene) -> CellGrid {
        // A text view's scene is drawn from words (`TextPageView`); as a picture its cells would be gigapixels.
        guard scene.viewport.textColumns == nil else { return CellGrid(columns: scene.viewport.columns, rows: scene.viewport.rows) }
        if scene == lastScene, let lastPicture { return lastPicture }
        var picture: CellGrid
        if let ahead = aheadPictures[scene] {
            picture = ahead
            lastEncodedCells = 0
        } else if let lastScene, var last = lastPicture, let dirty = DirtyCells.between(lastScene, scene, measurer: measurer) {
            for rect in dirty { last.paste(cells(of: scene, in: rect), column: rect.column, row: rect.row) }
            picture = last
            lastEncodedCells = dirty.reduce(0) { $0 + $1.width * $1.height }
        } else {
            picture = wholePicture(for: scene)
            lastEncodedCells = scene.viewport.columns * scene.viewport.rows
        }
        lastScene = scene
        lastPicture = picture
        return picture
    }

    /// The whole page area's cells, made whatever came before: what the cells made again after a change of markup
    /// must equal.
    public func wholePicture(for scene: PageScene) -> CellGrid {
        cells(of: scene, in: CellRect(column: 0, row: 0, width: scene.viewport.columns, height: scene.viewport.rows))
    }

    /// The cells of part of the page area, made exactly as the whole area's would be. chafa chooses each cell from
    /// its own pixels (no dithering across cells) but scales them down reading a little of the pixels around, so
    /// the part is encoded with a cell of the picture around it and only its own cells are kept.
    func cells(of scene: PageScene, in rect: CellRect) -> CellGrid {
        let whole = CellRect(column: 0, row: 0, width: scene.viewport.columns, height: scene.viewport.rows)
        let context = CellRect(column: rect.column - 1, row: rect.row - 1, width: rect.width + 2, height: rect.height + 2)
            .intersection(whole) ?? rect
        let window = composite(scene, in: context)
        var encoded = encoder.encode(pixels: window.pixels, width: window.width, height: window.height,
                                     stride: window.stride, columns: context.width, rows: context.height)
        // The page's own cells, not the backdrop around it.
        if let recolor = scene.recolor, let paper = Self.paper(of: scene.viewport)?.intersection(context) {
            encoded.recolor(in: CellRect(column: paper.column - context.column, row: paper.row - context.row,
                                         width: paper.width, height: paper.height), recolor, keepingPalette: fewColors)
        }
        guard context != rect else { return encoded }
        var cells = CellGrid(columns: rect.width, rows: rect.height)
        for row in 0..<rect.height {
            for column in 0..<rect.width {
                cells[column, row] = encoded[column + rect.column - context.column, row + rect.row - context.row]
            }
        }
        return cells
    }

    /// The raster a scene shows, if it is rendered: what a pixel mode sends the terminal.
    public func keptRaster(for scene: PageScene) -> PageRaster? {
        guard scene.viewport.textColumns == nil else { return nil }
        return rasters[key(for: scene)]
    }

    /// The markup, marks and outline of some cells of the page area over transparent pixels.
    func overlay(_ scene: PageScene, in rect: CellRect) -> PageRaster {
        compositor.overlay(viewport: Self.viewport(scene.viewport, in: rect), markup: scene.markup, sketches: scene.sketches,
                           highlight: scene.highlight,
                           hits: scene.marks.filter { $0.kind == .hit }.map(\.rect),
                           currentHit: scene.marks.filter { $0.kind == .currentHit }.map(\.rect),
                           selectedText: scene.marks.filter { $0.kind == .selectedText }.map(\.rect))
    }

    /// A viewport onto some cells of another.
    static func viewport(_ whole: PageViewport, in rect: CellRect) -> PageViewport {
        var viewport = whole
        viewport.originPixel = (viewport.originPixel.x + rect.column * viewport.cellPixels.width,
                                viewport.originPixel.y + rect.row * viewport.cellPixels.height)
        viewport.columns = rect.width
        viewport.rows = rect.height
        return viewport
    }

    /// The page area's pixels for a scene, before they become cells.
    public func composite(_ scene: PageScene) -> PageRaster {
        composite(scene, in: CellRect(column: 0, row: 0, width: scene.viewport.columns, height: scene.viewport.rows))
    }

    /// The pixels of some cells of the page area: a viewport onto just those cells.
    func composite(_ scene: PageScene, in rect: CellRect) -> PageRaster {
        let viewport = Self.viewport(scene.viewport, in: rect)
        return compositor.composite(raster: raster(for: key(for: scene)),
                             viewport: viewport, markup: scene.markup, sketches: scene.sketches, highlight: scene.highlight,
                             hits: scene.marks.filter { $0.kind == .hit }.map(\.rect),
                             currentHit: scene.marks.filter { $0.kind == .currentHit }.map(\.rect),
                             selectedText: scene.marks.filter { $0.kind == .selectedText }.map(\.rect))
    }

    /// The cells of the page area whose middle is on the page: a cell at the page's edge goes with what most of it
    /// shows, so the dark page is framed by neither a light line of turned backdrop nor one of paper left white.
    static func paper(of viewport: PageViewport) -> CellRect? {
        let (cellWidth, cellHeight) = (Double(viewport.cellPixels.width), Double(viewport.cellPixels.height))
        let left = Double(-viewport.originPixel.x) / cellWidth, top = Double(-viewport.originPixel.y) / cellHeight
        let right = left + Double(viewport.rasterWidth) / cellWidth, bottom = top + Double(viewport.rasterHeight) / cellHeight
        let firstColumn = Int((left - 0.5).rounded(.up)), firstRow = Int((top - 0.5).rounded(.up))
        let endColumn = Int((right - 0.5).rounded(.up)), endRow = Int((bottom - 0.5).rounded(.up))
        guard endColumn > firstColumn, endRow > firstRow else { return nil }
        return CellRect(column: firstColumn, row: firstRow, width: endColumn - firstColumn, height: endRow - firstRow)
            .intersection(CellRect(column: 0, row: 0, width: viewport.columns, height: viewport.rows))
    }

    /// The raster a scene needs: recoloured for a pixel mode; as printed for cells, which are recoloured instead.
    public func key(for scene: PageScene) -> RasterKey { RasterKey(scene, recoloring: !makesCells) }

    private func raster(for key: RasterKey) -> PageRaster {
        if let known = rasters[key] { return known }
        let raster = key.render(with: pageRenderer)
        renderCount += 1
        rasters.keep(raster, for: key)
        return raster
    }
}
