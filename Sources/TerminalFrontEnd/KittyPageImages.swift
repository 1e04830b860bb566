import CellPictures
import Editor
import Foundation
import NcursesTerminal
import RedlineCore
import TerminalGrid

/// kitty's graphics protocol, images placed directly (kitty, Ghostty, WezTerm). The page raster goes to the
/// terminal once per page and zoom and is placed under the text; scrolling places it again with another source
/// rectangle (no pixels sent). The markup is a second, transparent image over it, covering only the cells the
/// markup covers: a nudge sends that small image again, never the page.
final class KittyPageImages: PageImages {
    private let cell: TerminalReplies.PixelSize
    private let sharedMemory: Bool
    /// The page image on the terminal: which raster, under which id.
    private var page: (key: PagePictureMaker.RasterKey, id: Int)?
    private var pagePlacement: String?
    private var markupShown: (scene: PageScene, placement: String)?
    private var nextID = 1
    private var sharedMemoryCount = 0
    static let pagePlacementID = 1
    static let markupID = 2_000_000
    static let markupPlacementID = 2
    static let backingID = 2_000_001
    /// Over the page and its markup, under the text: see `backing`.
    static let backingZ = -1
    private var backingShown: (cells: [Cell?], rect: CellRect)?

    init(cell: TerminalReplies.PixelSize, sharedMemory: Bool) {
        self.cell = cell
        self.sharedMemory = sharedMemory
    }

    func frame(scene: PageScene?, pictures: PagePictureMaker, area: CellRect, grid: CellGrid, previous: CellGrid?,
               fullRepaint: Bool) -> String {
        var out = ""
        if fullRepaint {
            // Everything goes again. Clearing the screen deletes images on some kittys and not on others (0.26.5
            // kept a page turned away from through a resize): they are deleted by name first.
            out += farewell()
            pagePlacement = nil
        }
        guard let scene, let raster = pictures.keptRaster(for: scene) else {
            if let page { out += KittyGraphicsCommands.delete(image: page.id, freeing: false) }
            pagePlacement = nil
            if markupShown != nil { out += KittyGraphicsCommands.delete(image: Self.markupID, freeing: true) }
            markupShown = nil
            if backingShown != nil { out += KittyGraphicsCommands.delete(image: Self.backingID, freeing: true) }
            backingShown = nil
            return out
        }
        let key = pictures.key(for: scene)
        if page?.key != key {
            if let old = page { out += KittyGraphicsCommands.delete(image: old.id, freeing: true) }
            let id = nextID
            nextID = nextID % 1_000_000 + 1
            out += KittyGraphicsCommands.transmit(image: id, format: 24, width: raster.width, height: raster.height,
                                                  transfer: transfer(PixelLayouts.rgb(raster)))
            page = (key, id)
            pagePlacement = nil
        }
        if let page {
            let placement = placement(of: scene.viewport, raster: raster, area: area, image: page.id)
            if placement != pagePlacement {
                // Placed again under the same placement id, the page moves: no pixels are sent.
                out += placement ?? KittyGraphicsCommands.delete(image: page.id, freeing: false)
                pagePlacement = placement
            }
        }
        out += markup(scene, pictures: pictures, area: area)
        out += backing(grid, area: area)
        return out
    }

    /// The backgrounds of the cells drawn over the page area (the cursor, a label, an overlay), as an image over the
    /// page: the protocol draws images under such cells, but not every kitty leaves their background opaque, and a
    /// cursor on a white page must show whatever the terminal does.
    private func backing(_ grid: CellGrid, area: CellRect) -> String {
        var covered: CellRect?
        var cells: [Cell?] = []
        for row in area.row..<area.maxRow {
            for column in area.column..<area.maxColumn where grid[column, row] != .blank {
                let cell = CellRect(column: column, row: row, width: 1, height: 1)
                covered = covered?.bounding(cell) ?? cell
            }
        }
        guard let covered else {
            defer { backingShown = nil }
            return backingShown == nil ? "" : KittyGraphicsCommands.delete(image: Self.backingID, freeing: true)
        }
        for row in covered.row..<covered.maxRow {
            for column in covered.column..<covered.maxColumn {
                let cell = grid[column, row]
                cells.append(cell == .blank ? nil : cell)
            }
        }
        if let shown = backingShown, shown.rect == covered, shown.cells.map({ $0?.style }) == cells.map({ $0?.style }) { return "" }
        let previous = backingShown == nil ? "" : KittyGraphicsCommands.delete(image: Self.backingID, freeing: true)
        backingShown = (cells, covered)
        let width = covered.width * cell.width, height = covered.height * cell.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for (index, shown) in cells.enumerated() {
            guard let shown, let color = Self.background(of: shown.style) else { continue }
            let column = index % covered.width, row = index / covered.width
            for y in row * cell.height..<(row + 1) * cell.height {
                for x in column * cell.width..<(column + 1) * cell.width {
                    let offset = (y * width + x) * 4
                    pixels[offset] = color.red; pixels[offset + 1] = color.green; pixels[offset + 2] = color.blue; pixels[offset + 3] = 255
                }
            }
        }
        let command = KittyGraphicsCommands.transmitAndPlace(image: Self.backingID, placement: 1, format: 32, width: width, height: height,
                                                             transfer: .direct(compressed: ZlibCompression.compress(pixels)),
                                                             z: Self.backingZ)
        return previous + CursorPlacement.at(column: covered.column, row: covered.row, command)
    }

    /// The colour a cell's background shows, or nil for the terminal's own.
    static func background(of style: CellStyle) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        func rgb(_ color: TerminalColor) -> (red: UInt8, green: UInt8, blue: UInt8)? {
            switch color {
            case .default: return nil
            case .indexed(let index): return XtermPalette.rgb(index)
            case .rgb(let red, let green, let blue): return (red, green, blue)
            }
        }
        // Reversed, the foreground is the background; the terminal's own foreground is taken as light grey.
        if style.reverse { return rgb(style.foreground) ?? (0xD0, 0xD0, 0xD0) }
        return rgb(style.background)
    }

    /// The visible part of the page raster placed where it shows in the page area.
    private func placement(of viewport: PageViewport, raster: PageRaster, area: CellRect, image: Int) -> String? {
        let areaWidth = area.width * cell.width, areaHeight = area.height * cell.height
        let startX = max(0, viewport.originPixel.x), startY = max(0, viewport.originPixel.y)
        let endX = min(raster.width, viewport.originPixel.x + areaWidth), endY = min(raster.height, viewport.originPixel.y + areaHeight)
        guard endX > startX, endY > startY else { return nil }
        let screenX = startX - viewport.originPixel.x, screenY = startY - viewport.originPixel.y
        let place = KittyGraphicsCommands.place(image: image, placement: Self.pagePlacementID,
                                                source: (startX, startY, endX - startX, endY - startY),
                                                offset: (screenX % cell.width, screenY % cell.height), z: KittyGraphicsCommands.pageZ)
        return CursorPlacement.at(column: area.column + screenX / cell.width, row: area.row + screenY / cell.height, place)
    }

    /// The markup layer: sent again only when what it shows changed.
    private func markup(_ scene: PageScene, pictures: PagePictureMaker, area: CellRect) -> String {
        if let shown = markupShown, shown.scene == scene { return "" }
        guard let cells = MarkupCells.covered(by: scene, measurer: pictures.measurer) else {
            defer { markupShown = nil }
            return markupShown == nil ? "" : KittyGraphicsCommands.delete(image: Self.markupID, freeing: true)
        }
        // The old layer goes first: sent again under its id, not every kitty drops the old placement.
        let previous = markupShown == nil ? "" : KittyGraphicsCommands.delete(image: Self.markupID, freeing: true)
        let layer = pictures.overlay(scene, in: cells)
        let command = KittyGraphicsCommands.transmitAndPlace(image: Self.markupID, placement: Self.markupPlacementID, format: 32,
                                                             width: layer.width, height: layer.height,
                                                             transfer: transfer(PixelLayouts.straightRGBA(layer)),
                                                             z: KittyGraphicsCommands.markupZ)
        // Sent again under the same id, the new image replaces the old one and its placement.
        let placed = CursorPlacement.at(column: area.column + cells.column, row: area.row + cells.row, command)
        markupShown = (scene, placed)
        return previous + placed
    }

    private func transfer(_ pixels: [UInt8]) -> KittyGraphicsCommands.Transfer {
        if sharedMemory, let name = SharedMemoryImage.write(pixels, serial: sharedMemoryCount) {
            sharedMemoryCount += 1
            return .sharedMemory(name: name)
        }
        return .direct(compressed: ZlibCompression.compress(pixels))
    }

    /// A page image kitty lost is sent and placed again; a lost layer or backing is sent again with its next
    /// change or at once, as both are sent whole whenever shown.
    func imageMissing(_ id: Int) {
        if page?.id == id {
            page = nil
            pagePlacement = nil
        }
        if id == Self.markupID { markupShown = nil }
        if id == Self.backingID { backingShown = nil }
    }

    func farewell() -> String {
        var out = ""
        if let page { out += KittyGraphicsCommands.delete(image: page.id, freeing: true) }
        if markupShown != nil { out += KittyGraphicsCommands.delete(image: Self.markupID, freeing: true) }
        if backingShown != nil { out += KittyGraphicsCommands.delete(image: Self.backingID, freeing: true) }
        page = nil
        markupShown = nil
        backingShown = nil
        return out
    }
}

/// Pixels handed to a local kitty through POSIX shared memory: no encoding, no copy through the pty. kitty
/// removes the object once it has read it.
enum SharedMemoryImage {
    static func write(_ pixels: [UInt8], serial: Int) -> String? {
        let name = "/redline-\(getpid())-\(serial)"
        return DescriptorWrites.sharedMemory(named: name, holding: pixels) ? name : nil
    }
}
