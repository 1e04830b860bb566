import Foundation
import RedlineCore
import TerminalGrid

/// Draws the text view into the page area: paper-coloured cells for the page, its words where the page has
/// them (in the page's colours, made dark enough to read on the paper), then the search hits, the selected
/// words and the markup, each over the cells it covers. The cursor is drawn by `EditorView` through the same
/// viewport, as it is over the picture.
enum TextPageView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ scene: PageScene, _ env: EditorEnvironment, in area: CellRect) {
        guard let words = state.navigation.words[state.pageIndex], let layout = state.textLayout else { return }
        let viewport = scene.viewport
        let cell = viewport.pointsPerCell
        let first = viewport.firstCell
        let pageCells = (columns: Int((viewport.pageSize.width / cell.width).rounded(.up)),
                         rows: Int((viewport.pageSize.height / cell.height).rounded(.up)))
        grid.fill(area, with: Cell(" ", style: Theme.textBackdrop))
        // A colour made readable, or a tint, once per frame, not once per word or annotation (a page can carry 100,000).
        var readable = ColourMemo(make: ReadableInk.onPaper), tints = ColourMemo(make: ReadableInk.tint)
        func onPaper(_ color: RGBColor) -> RGBColor { readable.made(color) }
        func tint(_ color: RGBColor) -> RGBColor { tints.made(color) }
        // A third of a cell between the points a line marks, so it marks every cell it crosses; for a line longer
        // than the view holds many times over (a polygon of 200,000 corners scribbled across the page), no more
        // points than sixteen for each cell of the view, so one frame never takes seconds.
        let budget = Double(max(1, area.width * area.height) * 16)
        func step(along strokes: [[Point]]) -> Double {
            var length = 0.0
            for stroke in strokes {
                for (from, to) in zip(stroke, stroke.dropFirst()) { length += ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot() }
            }
            return max(min(cell.width, cell.height) / 3, length / budget)
        }
        // The page's band in view, for what lies wholly above or below it to be passed over at once.
        let viewTop = viewport.point(forCellPlace: Point(x: 0, y: 0)).y
        let viewBottom = viewport.point(forCellPlace: Point(x: 0, y: Double(area.height))).y
        func inView(_ top: Double, _ bottom: Double) -> Bool { bottom >= viewTop - cell.height && top <= viewBottom + cell.height }
        let paper = CellRect(column: area.column - first.column, row: area.row - first.row,
                             width: pageCells.columns, height: pageCells.rows).intersection(area)
        if let paper { grid.fill(paper, with: Cell(" ", style: Theme.textPaper)) }

        for placed in layout.words {
            let row = area.row + placed.row - first.row
            guard row >= area.row, row < area.maxRow else { continue }
            let column = area.column + placed.column - first.column
            guard column < area.maxColumn, column + placed.cells > area.column else { continue }
            let style = words[placed.word].color.map { Theme.textInk(onPaper($0)) } ?? Theme.textPaper
            grid.write(words[placed.word].text, column: column, row: row, style: style, limit: area.maxColumn - column)
        }
        // Dark: the paper and its words, as the picture's page is; hits, selections and markup drawn next keep theirs.
        if let recolor = scene.recolor, let paper { grid.recolor(in: paper, recolor) }

        /// The cells a page rect covers, row by row: each row places its columns through its own words. A box of a
        /// line's words (a hit, a selection, a highlight) is in the row of its middle, as its words are.
        func restyle(_ rect: Rect, line: Bool = true, _ change: (inout CellStyle) -> Void) {
            if !line, rect.width == 0, rect.height == 0 {
                // A point (of an ink, of an outline): its own cell, mapped once.
                let place = viewport.cell(for: rect.origin)
                guard place.row >= 0, place.row < area.height, place.column >= 0, place.column < area.width else { return }
                var target = grid[area.column + place.column, area.row + place.row]
                change(&target.style)
                grid[area.column + place.column, area.row + place.row] = target
                return
            }
            // A box's far edge on a cell's boundary does not reach into the next cell.
            let top = viewport.cell(for: line ? rect.center : rect.origin).row
            let bottom = line ? top : viewport.cell(for: Point(x: rect.minX, y: rect.maxY - cell.height * 0.01)).row
            let firstRow = max(top, 0), lastRow = min(bottom, area.height - 1)
            guard firstRow <= lastRow else { return }
            for row in firstRow...lastRow {
                let middle = viewport.point(forCellPlace: Point(x: 0, y: Double(row) + 0.5)).y
                // A line's box (a hit within a word, say "fits" of "fits.") takes the cells it covers at least half
                // of: a cell's letter is not where the cell's share of the word puts it, so a box ending inside a
                // cell is taken to end at that cell's nearer edge. A point (ink) takes its own cell.
                let near = viewport.cellPlace(for: Point(x: rect.minX, y: middle)).x
                let far = viewport.cellPlace(for: Point(x: rect.maxX, y: middle)).x
                let start = line ? Int(near.rounded()) : Int((near + 1e-6).rounded(.down))
                // An area (a note's icon, an area highlight) takes every cell it reaches into.
                let end = line ? max(start, Int(far.rounded()) - 1) : max(start, Int((far - 1e-6).rounded(.down)))
                // Only the part in view: a box left or right of the page area (a hit, a note, scrolled away) has none.
                let first = max(0, start), last = min(end, area.width - 1)
                guard first <= last else { continue }
                for column in first...last {
                    var target = grid[area.column + column, area.row + row]
                    change(&target.style)
                    grid[area.column + column, area.row + row] = target
                }
            }
        }

        // Filled shapes tint the words under them, as a highlight does, row by row across their inside (a shape
        // larger than the view shows where it lies with its outline out of sight): under the search hits and the
        // selection, which stay visible on them.
        // Each sketch's reach, found once for both passes (a polygon's is a walk over every corner).
        // The shapes drawn in this session are drawn as the file's are, and a callout's line as a line.
        let sketches = scene.sketches + scene.markup.compactMap { item -> AnnotationSketch? in
            switch item.content {
            case .shape(let shape): shape.sketch
            case .text(let text): text.calloutSketch(measuredBy: env.measurer)
            default: nil
            }
        }
        let reaches = sketches.map(\.bounds)
        for (sketch, bounds) in zip(sketches, reaches) {
            guard let fill = sketch.fill else { continue }
            if case .note = sketch.shape { continue }
            guard inView(bounds.minY, bounds.maxY) else { continue }
            let tinted = Theme.textHighlighter(tint(fill))
            let firstRow = max(0, viewport.cell(for: Point(x: 0, y: bounds.minY)).row)
            let lastRow = min(area.height - 1, viewport.cell(for: Point(x: 0, y: bounds.maxY)).row)
            for row in stride(from: firstRow, through: lastRow, by: 1) {
                let middle = viewport.point(forCellPlace: Point(x: 0, y: Double(row) + 0.5)).y
                for span in insideSpans(of: sketch.shape, at: middle) {
                    restyle(Rect(x: span.lowerBound, y: middle, width: span.upperBound - span.lowerBound, height: 0)) { $0 = tinted }
                }
            }
        }
        for mark in scene.marks {
            switch mark.kind {
            case .hit: restyle(mark.rect) { $0 = Theme.textHit }
            case .currentHit: restyle(mark.rect) { $0 = Theme.textCurrentHit }
            case .selectedText: restyle(mark.rect) { $0 = Theme.textSelected }
            }
        }
        // Annotations drawn from their keys: their outline in their colour, a stamp's words where it starts.
        for (sketch, bounds) in zip(sketches, reaches) {
            guard inView(bounds.minY, bounds.maxY) else { continue }
            // A note is its icon's colour (its outline is black on every note); the others their line's.
            let isNote = if case .note = sketch.shape { true } else { false }
            let ink = (isNote ? sketch.fill : sketch.stroke ?? sketch.fill) ?? RGBColor(red: 0, green: 0, blue: 0)
            if case .note(let rect) = sketch.shape {
                restyle(rect, line: false) { $0 = Theme.textHighlighter(tint(ink)) }
                continue
            }
            // An area highlight, a fill alone, is its tint (drawn under the marks, above).
            if sketch.fill != nil, sketch.multiplies || sketch.stroke == nil { continue }
            let style = Theme.textStroke(onPaper(ink))
            let strokes = outline(of: sketch)
            for point in strokes.flatMap({ sampled($0, step: step(along: strokes)) }) {
                restyle(Rect(origin: point, size: Size(width: 0, height: 0)), line: false) { $0 = style }
            }
            if case .stamp(let rect, let words) = sketch.shape {
                let start = viewport.cell(for: Point(x: rect.minX + cell.width, y: rect.center.y))
                let column = area.column + start.column, row = area.row + start.row
                if row >= area.row, row < area.maxRow, column >= area.column, column < area.maxColumn {
                    grid.write(words, column: column, row: row, style: Theme.textMarkup(onPaper(ink)), limit: area.maxColumn - column)
                }
            }
        }
        var highlight = scene.highlight
        for item in scene.markup {
            switch item.content {
            case .text(let text):
                // Where it starts, on the row of its top: where the cursor stood when it was typed.
                let start = viewport.cell(for: text.origin)
                let column = area.column + start.column, row = area.row + start.row
                guard row >= area.row, row < area.maxRow, column < area.maxColumn else { continue }
                let box = text.textBox(measuredBy: env.measurer)
                // Selected or being typed, a text is shown reversed where it is written, a character a cell;
                // its box on the page, in a larger font, would cover words it does not.
                var style = Theme.textMarkup(onPaper(text.color.rgb))
                if highlight == box {
                    style.reverse = true
                    highlight = nil
                }
                grid.write(text.text.isEmpty ? " " : text.text, column: column, row: row, style: style, limit: area.maxColumn - column)
            case .ink(let ink):
                guard inView(ink.bounds.minY, ink.bounds.maxY) else { continue }
                let style = ink.isHighlighter ? Theme.textHighlighter(tint(ink.color.rgb))
                    : Theme.textStroke(onPaper(ink.color.rgb))
                let step = step(along: ink.strokes)
                for stroke in ink.strokes {
                    for point in sampled(stroke, step: step) {
                        restyle(Rect(origin: point, size: Size(width: 0, height: 0)), line: false) { $0 = style }
                    }
                }
            case .shape:
                continue
            case .textMarks(let marks):
                guard inView(marks.bounds.minY, marks.bounds.maxY) else { continue }
                let ink = marks.color.rgb
                for rect in marks.rects {
                    switch marks.kind {
                    case .highlight: restyle(rect) { $0 = Theme.textHighlighter(tint(ink)) }
                    // A terminal's cells have one kind of underline: a squiggly is underlined in its colour too.
                    case .underline, .squiggly: restyle(rect) { $0.underline = true; $0.foreground = Theme.color(onPaper(ink)) }
                    case .strikeOut: restyle(rect) { $0 = Theme.textStroke(onPaper(ink)) }
                    }
                }
            }
        }
        if let highlight {
            restyle(highlight, line: false) { $0.reverse.toggle() }
        }
    }

    /// A sketch's outline as strokes of points: a rect's four sides, an ellipse as 32 of its points, a path's strokes.
    static func outline(of sketch: AnnotationSketch) -> [[Point]] {
        func sides(_ rect: Rect) -> [[Point]] {
            [[rect.origin, Point(x: rect.maxX, y: rect.minY), Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY), rect.origin]]
        }
        switch sketch.shape {
        case .rectangle(let rect), .note(let rect), .stamp(let rect, _): return sides(rect)
        case .ellipse(let rect):
            return [(0...32).map { step in
                let angle = Double(step) / 32 * 2 * Double.pi
                return Point(x: rect.center.x + rect.width / 2 * cos(angle), y: rect.center.y + rect.height / 2 * sin(angle))
            }]
        case .path(let strokes, let closed):
            return closed ? strokes.map { $0 + $0.prefix(1) } : strokes
        }
    }

    /// Where a filled shape's inside crosses the line at `y`, left to right: a rect's or an ellipse's one span, a
    /// polygon's spans between its edges' crossings taken in pairs (even-odd, as PDF fills with `f*`).
    static func insideSpans(of shape: AnnotationSketch.Shape, at y: Double) -> [ClosedRange<Double>] {
        switch shape {
        case .rectangle(let rect):
            return rect.minY <= y && y <= rect.maxY && rect.width >= 0 ? [rect.minX...rect.maxX] : []
        case .ellipse(let rect):
            let across = rect.height > 0 ? (y - rect.center.y) / (rect.height / 2) : 2
            guard abs(across) <= 1 else { return [] }
            let half = rect.width / 2 * (1 - across * across).squareRoot()
            return [(rect.center.x - half)...(rect.center.x + half)]
        case .path(let strokes, closed: true):
            var crossings: [Double] = []
            for stroke in strokes where stroke.count >= 3 {
                for (index, start) in stroke.enumerated() {
                    let end = stroke[(index + 1) % stroke.count]
                    // Half-open in y, so a corner on the line counts once.
                    guard (start.y <= y) != (end.y <= y) else { continue }
                    crossings.append(start.x + (y - start.y) / (end.y - start.y) * (end.x - start.x))
                }
            }
            crossings.sort()
            return stride(from: 0, to: crossings.count - 1, by: 2).map { crossings[$0]...crossings[$0 + 1] }
        case .path, .note, .stamp:
            return []
        }
    }

    /// The points along a stroke, no further apart than `step`: a stroke marks every cell it passes through.
    static func sampled(_ stroke: [Point], step: Double) -> [Point] {
        guard var previous = stroke.first else { return [] }
        var points = [previous]
        for point in stroke.dropFirst() {
            let length = ((point.x - previous.x) * (point.x - previous.x) + (point.y - previous.y) * (point.y - previous.y)).squareRoot()
            let steps = min(10_000, Int((length / max(step, 0.01)).rounded(.up)))
            if steps > 0 {
                for index in 1...steps {
                    let t = Double(index) / Double(steps)
                    points.append(Point(x: previous.x + (point.x - previous.x) * t, y: previous.y + (point.y - previous.y) * t))
                }
            }
            previous = point
        }
        return points
    }
}

/// Colours made from colours, each made once.
private struct ColourMemo {
    let make: (RGBColor) -> RGBColor
    private var known: [RGBColor: RGBColor] = [:]

    init(make: @escaping (RGBColor) -> RGBColor) { self.make = make }

    mutating func made(_ color: RGBColor) -> RGBColor {
        if let made = known[color] { return made }
        let made = make(color)
        known[color] = made
        return made
    }
}

/// Colours from a page or its markup, made to read as text on the text view's white paper.
enum ReadableInk {
    /// The colour, darkened until it stands at 5.5:1 against white (WCAG asks 4.5; the margin keeps it there
    /// once a 256-colour terminal rounds it to its palette).
    static func onPaper(_ color: RGBColor) -> RGBColor {
        var (red, green, blue) = (Double(color.red), Double(color.green), Double(color.blue))
        for _ in 0..<40 where contrastOnWhite(red, green, blue) < 5.5 {
            red *= 0.9; green *= 0.9; blue *= 0.9
        }
        return RGBColor(red: UInt8(red.rounded()), green: UInt8(green.rounded()), blue: UInt8(blue.rounded()))
    }

    /// A light tint of the colour for a highlighter's cells or a filled shape's, black words reading on it at 6:1
    /// or more (WCAG's 4.5, with room for a palette's rounding): a third white at least, more for a dark colour
    /// (navy, #202020), which would otherwise hide the words under it.
    static func tint(_ color: RGBColor) -> RGBColor {
        var white = 0.35
        func mixed(_ value: UInt8) -> Double { Double(value) * (1 - white) + 255 * white }
        while white < 1, (luminance(mixed(color.red), mixed(color.green), mixed(color.blue)) + 0.05) / 0.05 < 6 { white += 0.05 }
        white = min(white, 1)
        return RGBColor(red: UInt8(mixed(color.red).rounded()), green: UInt8(mixed(color.green).rounded()), blue: UInt8(mixed(color.blue).rounded()))
    }

    static func contrastOnWhite(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        1.05 / (luminance(red, green, blue) + 0.05)
    }

    static func luminance(_ red: Double, _ green: Double, _ blue: Double) -> Double {
        func linear(_ value: Double) -> Double {
            let c = value / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }
}
