import Editor
import RedlineCore
import TerminalGrid

/// Which cells of the page area a change of markup touches, so that only those are made again: a nudge moves
/// one markup, and its old and new places are all that changed on screen.
enum DirtyCells {
    /// The cell rects to make again between two scenes, or nil when the change is not only markup (another page,
    /// a zoom, a scroll, search hits), or the markup was only reordered: then the whole area is made again.
    static func between(_ old: PageScene, _ new: PageScene, measurer: any TextMeasuring) -> [CellRect]? {
        guard old.pageIndex == new.pageIndex, old.viewport == new.viewport, old.marks == new.marks,
              old.annotationEdits == new.annotationEdits, old.recolor == new.recolor else { return nil }
        let viewport = new.viewport
        let pixel = 1 / viewport.scale
        var boxes: [Rect] = []
        let kept = Set(old.markup).intersection(new.markup)
        let removed = old.markup.filter { !kept.contains($0) }, added = new.markup.filter { !kept.contains($0) }
        if removed.isEmpty, added.isEmpty, old.markup != new.markup { return nil }
        boxes += (removed + added).map { paintedBox(of: $0, measurer: measurer, pixel: pixel) }
        if old.sketches != new.sketches {
            let keptSketches = Set(old.sketches).intersection(new.sketches)
            let changed = old.sketches.filter { !keptSketches.contains($0) } + new.sketches.filter { !keptSketches.contains($0) }
            // Only reordered: what is drawn on top changed everywhere they overlap.
            if changed.isEmpty { return nil }
            boxes += changed.map { paintedBox(of: $0, pixel: pixel) }
        }
        if old.highlight != new.highlight {
            boxes += [old.highlight, new.highlight].compactMap { $0.map { paintedBox(ofHighlight: $0, pixel: pixel) } }
        }
        // chafa's scaling reads a little past a cell's own pixels: the cells beside changed pixels change too.
        return merged(boxes.compactMap { cells(covering: $0, in: viewport, margin: 1) })
    }

    /// Where a markup's paint reaches: the painter's antialiasing and a font's overhang go a little past the measured box.
    static func paintedBox(of item: MarkupItem, measurer: any TextMeasuring, pixel: Double) -> Rect {
        item.bounds(measuredBy: measurer).insetBy(dx: -3 * pixel - 1, dy: -3 * pixel - 1)
    }

    /// Where an annotation drawn from its keys reaches, antialiasing included.
    static func paintedBox(of sketch: AnnotationSketch, pixel: Double) -> Rect {
        sketch.bounds.insetBy(dx: -3 * pixel - 1, dy: -3 * pixel - 1)
    }

    /// The selection's dashed outline stands four pixels outside its rect and is four pixels wide.
    static func paintedBox(ofHighlight highlight: Rect, pixel: Double) -> Rect {
        highlight.insetBy(dx: -10 * pixel, dy: -10 * pixel)
    }

    /// The page area's cells a box covers, with `margin` cells more around; nil when none is in the area.
    static func cells(covering box: Rect, in viewport: PageViewport, margin: Int) -> CellRect? {
        let area = CellRect(column: 0, row: 0, width: viewport.columns, height: viewport.rows)
        let start = viewport.cell(for: box.origin), end = viewport.cell(for: Point(x: box.maxX, y: box.maxY))
        return CellRect(column: start.column - margin, row: start.row - margin, width: end.column - start.column + 1 + 2 * margin,
                        height: end.row - start.row + 1 + 2 * margin).intersection(area)
    }

    /// Overlapping or touching rects joined into one, so no cell is made twice.
    static func merged(_ rects: [CellRect]) -> [CellRect] {
        var result = rects
        var joined = true
        while joined {
            joined = false
            outer: for first in result.indices {
                for second in result.indices where second > first {
                    let a = result[first], b = result[second]
                    if a.column <= b.maxColumn, b.column <= a.maxColumn, a.row <= b.maxRow, b.row <= a.maxRow {
                        let column = min(a.column, b.column), row = min(a.row, b.row)
                        result[first] = CellRect(column: column, row: row, width: max(a.maxColumn, b.maxColumn) - column,
                                                 height: max(a.maxRow, b.maxRow) - row)
                        result.remove(at: second)
                        joined = true
                        break outer
                    }
                }
            }
        }
        return result
    }
}
