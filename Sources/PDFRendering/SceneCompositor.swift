import CPoppler
import RedlineCore

/// Cuts the visible window out of a page raster and draws the markup over it, at the raster's own scale.
/// The page is never rendered again here: a nudge costs one copy and a little drawing.
public struct SceneCompositor: Sendable {
    public let painter: MarkupPainter
    /// What shows around the page when it is smaller than the page area.
    public var backdrop: UInt32 = 0x3A3A3A

    public init(painter: MarkupPainter) {
        self.painter = painter
    }

    /// The page area's pixels: `viewport.columns × cell width` by `viewport.rows × cell height`.
    public func composite(raster: PageRaster, viewport: PageViewport, markup: [MarkupItem], sketches: [AnnotationSketch] = [],
                          highlight: Rect?, hits: [Rect] = [], currentHit: [Rect] = [], selectedText: [Rect] = []) -> PageRaster {
        let width = viewport.columns * viewport.cellPixels.width
        let height = viewport.rows * viewport.cellPixels.height
        var window = PageRaster(width: max(1, width), height: max(1, height), filledWith: backdrop)
        copy(raster, into: &window, origin: viewport.originPixel)
        draw(markup: markup, sketches: sketches, highlight: highlight, hits: hits, currentHit: currentHit, selectedText: selectedText,
             viewport: viewport, on: &window)
        return window
    }

    /// The markup alone over transparent pixels, for a terminal that lays it over the page image itself (kitty): the
    /// same drawing as `composite`, so the two layers together are the composite's pixels.
    public func overlay(viewport: PageViewport, markup: [MarkupItem], sketches: [AnnotationSketch] = [], highlight: Rect?,
                        hits: [Rect] = [], currentHit: [Rect] = [], selectedText: [Rect] = []) -> PageRaster {
        let width = max(1, viewport.columns * viewport.cellPixels.width)
        let height = max(1, viewport.rows * viewport.cellPixels.height)
        var window = PageRaster(width: width, height: height, stride: width * 4, pixels: [UInt8](repeating: 0, count: width * height * 4))
        draw(markup: markup, sketches: sketches, highlight: highlight, hits: hits, currentHit: currentHit, selectedText: selectedText,
             viewport: viewport, on: &window)
        return window
    }

    private func draw(markup: [MarkupItem], sketches: [AnnotationSketch], highlight: Rect?, hits: [Rect], currentHit: [Rect], selectedText: [Rect],
                      viewport: PageViewport, on window: inout PageRaster) {
        withCairoContext(on: &window) { context in
            cairo_translate(context, Double(-viewport.originPixel.x), Double(-viewport.originPixel.y))
            cairo_scale(context, viewport.scale, viewport.scale)
            // Clip to the page: markup never shows on the backdrop, as it could not in the file.
            cairo_rectangle(context, 0, 0, viewport.pageSize.width, viewport.pageSize.height)
            cairo_clip(context)
            painter.paint(sketches, on: context)
            painter.paint(markup, on: context)
            painter.paintHits(hits, current: currentHit, pixelSize: 1 / viewport.scale, on: context)
            painter.paintSelection(selectedText, on: context)
            if let highlight {
                cairo_reset_clip(context)
                painter.paintHighlight(highlight, pixelSize: 1 / viewport.scale, on: context)
            }
        }
    }

    private func copy(_ raster: PageRaster, into window: inout PageRaster, origin: (x: Int, y: Int)) {
        let startX = max(0, origin.x), endX = min(raster.width, origin.x + window.width)
        guard endX > startX else { return }
        let rowBytes = (endX - startX) * 4
        for sourceY in max(0, origin.y)..<max(max(0, origin.y), min(raster.height, origin.y + window.height)) {
            let targetY = sourceY - origin.y
            let source = sourceY * raster.stride + startX * 4
            let target = targetY * window.stride + (startX - origin.x) * 4
            window.pixels.withUnsafeMutableBufferPointer { targetBuffer in
                raster.pixels.withUnsafeBufferPointer { sourceBuffer in
                    (targetBuffer.baseAddress! + target).update(from: sourceBuffer.baseAddress! + source, count: rowBytes)
                }
            }
        }
    }
}
