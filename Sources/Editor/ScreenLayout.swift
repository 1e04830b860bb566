import RedlineCore
import TerminalGrid

/// Where things go on screen: the page area on top (with a side panel on its right when one is open),
/// then the status line and the message line.
public struct ScreenLayout: Sendable, Hashable {
    public var pageArea: CellRect
    public var panel: CellRect?
    public var statusRow: Int
    public var messageRow: Int
    /// The user interface is hidden (`F`): the page takes every row; the message line shows over its foot only
    /// when there is something to say or type.
    public var hidesInterface = false
    /// Everything above the status line: where the key overlay goes, over the page and any panel.
    public var overlayArea: CellRect { CellRect(column: 0, row: 0, width: pageArea.width + (panel?.width ?? 0), height: pageArea.height) }

    public init(columns: Int, rows: Int, withPanel: Bool = false, hidesInterface: Bool = false) {
        self.hidesInterface = hidesInterface && !withPanel
        let height = self.hidesInterface ? max(1, rows) : max(1, rows - 2)
        if withPanel {
            // Wide enough to read a comment, never more than half the screen.
            let width = min(max(24, columns * 2 / 5), 60, max(1, columns / 2))
            pageArea = CellRect(column: 0, row: 0, width: max(1, columns - width), height: height)
            panel = CellRect(column: columns - width, row: 0, width: width, height: height)
        } else {
            pageArea = CellRect(column: 0, row: 0, width: columns, height: height)
        }
        statusRow = max(0, rows - 2)
        messageRow = max(0, rows - 1)
    }
}

extension EditorState {
    public var layout: ScreenLayout {
        ScreenLayout(columns: columns, rows: rows, withPanel: interaction.panel != nil, hidesInterface: chrome.hidesInterface)
    }

    /// The scale that fits the whole current page into the page area.
    func fitScale(cellPixels: CellPixelSize) -> Double {
        let area = layout.pageArea
        let size = pageSize
        guard size.width > 0, size.height > 0 else { return 1 }
        return min(Double(area.width * cellPixels.width) / size.width,
                   Double(area.height * cellPixels.height) / size.height)
    }

    /// The zoom shown, over the scale that fits the page: `zoom`, or what fitting the page's width takes.
    public func effectiveZoom(cellPixels: CellPixelSize) -> Double {
        guard view.fitsWidth, pageSize.width > 0 else { return zoom }
        let fit = fitScale(cellPixels: cellPixels)
        return fit > 0 ? Double(layout.pageArea.width * cellPixels.width) / pageSize.width / fit : zoom
    }

    /// The mapping between the current page and the page area, at the current zoom and scroll.
    public func viewport(cellPixels: CellPixelSize) -> PageViewport {
        if let textLayout { return textViewport(textLayout) }
        let area = layout.pageArea
        let scale = fitScale(cellPixels: cellPixels) * effectiveZoom(cellPixels: cellPixels)
        var viewport = PageViewport(pageSize: pageSize, scale: scale, cellPixels: cellPixels, originPixel: (0, 0),
                                    columns: area.width, rows: area.height)
        let areaWidth = area.width * cellPixels.width
        let areaHeight = area.height * cellPixels.height
        func origin(raster: Int, area: Int, scrolledTo point: Double) -> Int {
            guard raster > area else { return -((area - raster) / 2) }
            return min(max(0, Int(clamping: (point * scale).rounded())), raster - area)
        }
        viewport.originPixel = (origin(raster: viewport.rasterWidth, area: areaWidth, scrolledTo: scroll.x),
                                origin(raster: viewport.rasterHeight, area: areaHeight, scrolledTo: scroll.y))
        return viewport
    }
}
