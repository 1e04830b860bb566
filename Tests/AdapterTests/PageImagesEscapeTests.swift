import Editor
import Foundation
import RedlineCore
import RedlineKit
@testable import TerminalFrontEnd
import TerminalGrid
import TestSupport
import Testing

/// What each pixel mode writes, read back by an independent decoder (`TerminalImageDecoder`): kitty's images,
/// placements, z-indexes, source rectangles and chunks; sixel's painted pixels; kitty's placeholder cells and tiles
/// through tmux. The decoded pixels are compared with poppler's render of the page, and a nudge is checked to send
/// the markup, never the page.
@Suite(.serialized) struct PageImagesEscapeTests {
    static let cell = TerminalReplies.PixelSize(width: 10, height: 20)
    static let columns = 100, rows = 30

    /// The editor on sample.pdf page 1 in `mode`: a note typed, then nudged right six times, then quit.
    static func run(_ mode: GraphicsMode) throws -> RecordingScreen {
        let folder = TemporaryFolder()
        var choice = GraphicsChoice(mode: mode, cellPixels: cell)
        choice.throughTmux = mode == .kittyPlaceholders
        let screen = RecordingScreen(columns: columns, rows: rows, script: [
            .waitForFrameWhere("the page rendered") { lines in
                lines.contains { $0.contains("page 1/4") } && !lines.contains { $0.contains("Rendering page") }
            },
            .keys([.character("t"), .character("O"), .character("K"), .enter]),
            .waitForFrame(containing: "selected \"OK\""),
            .keys([.right, .right, .right, .right, .right, .right]),
            .nextFrame,
            .keys([.character(":"), .character("q"), .character("!"), .enter]),
        ])
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        let session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                    reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(), graphics: choice,
                                    journalEnvironment: ["XDG_STATE_HOME": folder.file("state")])
        session.run()
        #expect(screen.timedOut == nil, "\(screen.timedOut ?? "")")
        return screen
    }

    /// The frame index where the note is first shown selected: what follows are the nudges.
    static func typedFrame(_ screen: RecordingScreen) -> Int {
        screen.frames.firstIndex { $0.contains { $0.contains("selected \"OK\"") } } ?? screen.frames.count
    }

    static func decoder(_ screen: RecordingScreen, frames: Range<Int>) -> TerminalImageDecoder {
        var decoder = TerminalImageDecoder(cell: (cell.width, cell.height), columns: columns, rows: rows)
        for index in frames { decoder.read(screen.images[index]) }
        return decoder
    }

    static func redBox(_ decoder: TerminalImageDecoder) -> (minX: Int, maxX: Int, minY: Int)? {
        var minX = Int.max, maxX = -1, minY = Int.max
        for y in 0..<decoder.canvasHeight {
            for x in 0..<decoder.canvasWidth {
                let pixel = decoder.pixel(x, y)
                guard pixel.red > 180, pixel.green < 80, pixel.blue < 80 else { continue }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y)
            }
        }
        return maxX < 0 ? nil : (minX, maxX, minY)
    }

    static func meanDifference(_ decoder: TerminalImageDecoder, at origin: (x: Int, y: Int), poppler: RenderedPage,
                               skipRed: (minX: Int, maxX: Int, minY: Int)?) -> Double {
        var total = 0, count = 0
        for y in 0..<poppler.height where origin.y + y < decoder.canvasHeight {
            for x in 0..<poppler.width where origin.x + x < decoder.canvasWidth {
                // The cursor's cell and the note are not the page's.
                if let red = skipRed, x + origin.x >= red.minX - 40, x + origin.x <= red.maxX + 40, y + origin.y >= red.minY - 40,
                   y + origin.y <= red.minY + 60 { continue }
                let a = decoder.pixel(origin.x + x, origin.y + y), b = poppler.rgb(x, y)
                total += abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue)
                count += 1
            }
        }
        return Double(total) / Double(max(1, 3 * count))
    }

    @Test func kittyPlacesThePageOnceAndANudgeSendsOnlyTheMarkup() throws {
        let screen = try Self.run(.kitty)
        let typed = Self.typedFrame(screen)
        let all = Self.decoder(screen, frames: 0..<screen.images.count)
        let pageSends = all.commands.filter { $0.keys["a"] == "t" }
        #expect(pageSends.count == 1, "the page goes to the terminal once: \(pageSends.count)")
        for command in all.commands {
            #expect(command.chunkPayloads.dropLast().allSatisfy { $0 == KittyGraphicsCommands.chunkSize })
            #expect((command.chunkPayloads.last ?? 0) <= KittyGraphicsCommands.chunkSize)
        }
        let pageID = try #require(pageSends.first?.int("i"))
        #expect(pageSends.first?.keys["o"] == "z" && pageSends.first?.keys["f"] == "24", "zlib-compressed RGB")

        var shown = Self.decoder(screen, frames: 0..<(typed + 1))
        let page = try #require(shown.images[pageID])
        let placement = try #require(shown.placements.values.first { $0.image == pageID })
        #expect(placement.z == KittyGraphicsCommands.pageZ)
        let poppler = try PopplerRender.page(1, of: TestPaths.sample, width: page.width, height: page.height)
        shown.paintPlacements()
        let origin = (placement.cell.column * Self.cell.width + placement.offset.x - placement.source.x,
                      placement.cell.row * Self.cell.height + placement.offset.y - placement.source.y)
        let before = Self.redBox(shown)
        let difference = Self.meanDifference(shown, at: origin, poppler: poppler, skipRed: before)
        // Redline renders with poppler's cairo backend, pdftoppm with Splash: their antialiasing differs a little.
        #expect(difference < 4, "the decoded page is poppler's page: mean difference \(difference)")
        let markup = try #require(shown.placements.values.first { $0.z == KittyGraphicsCommands.markupZ }, "the note is its own image")
        #expect(shown.images[markup.image].map { $0.format == 32 && $0.width < page.width / 4 } == true, "small and transparent")

        var nudged = Self.decoder(screen, frames: 0..<(screen.images.count - 1))
        nudged.paintPlacements()
        let after = try #require(Self.redBox(nudged))
        // The cursor's red cell stays where the note was typed; the note's right edge moves.
        #expect(after.maxX > (before?.maxX ?? .max) + 3, "the note moved right: \(String(describing: before)) → \(after)")
        let nudgeFrames = screen.images[(typed + 1)..<(screen.images.count - 1)].filter { !$0.isEmpty }
        #expect(!nudgeFrames.isEmpty)
        for frame in nudgeFrames {
            #expect(!frame.contains("a=t,"), "a nudge never sends the page")
            #expect(frame.utf8.count < 16_000, "a nudge frame writes \(frame.utf8.count) bytes")
        }
        let farewell = screen.images.last ?? ""
        #expect(farewell.contains("a=d,q=2,d=I,i=\(pageID)"), "the page image is deleted as the editor quits")
    }

    /// kitty evicts images when its store is full and then answers a placement with ENOENT: the page is sent again
    /// and placed where it was. A report about an image the editor no longer shows changes nothing.
    @Test func kittySendsThePageAgainWhenTheTerminalSaysItIsMissing() throws {
        let folder = TemporaryFolder()
        func pageID(_ screen: RecordingScreen) -> Int {
            Self.decoder(screen, frames: 0..<screen.images.count).commands.last { $0.keys["a"] == "t" }?.int("i") ?? -1
        }
        var reportedAt: [Int] = []
        let screen = RecordingScreen(columns: Self.columns, rows: Self.rows, script: [
            .waitForFrameWhere("the page rendered") { lines in
                lines.contains { $0.contains("page 1/4") } && !lines.contains { $0.contains("Rendering page") }
            },
            .input { screen in reportedAt.append(screen.images.count); return [.imageMissing(id: pageID(screen) + 500)] },
            .nextFrame,
            .input { screen in reportedAt.append(screen.images.count); return [.imageMissing(id: pageID(screen))] },
            .nextFrame,
            .keys([.character(":"), .character("q"), .character("!"), .enter]),
        ])
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        let session = EditorSession(document: document, screen: screen, services: RedlineServices(), startPage: 0,
                                    reviewer: Reviewer(author: "Alice"), configuration: RedlineConfiguration(),
                                    graphics: GraphicsChoice(mode: .kitty, cellPixels: Self.cell),
                                    journalEnvironment: ["XDG_STATE_HOME": folder.file("state")])
        session.run()
        #expect(screen.timedOut == nil, "\(screen.timedOut ?? "")")
        try #require(reportedAt.count == 2)
        let unrelated = screen.images[reportedAt[0]..<reportedAt[1]].joined()
        #expect(!unrelated.contains("a=t,"), "an image the editor does not show is not sent again")
        let first = Self.decoder(screen, frames: 0..<reportedAt[1])
        let firstID = try #require(first.commands.last { $0.keys["a"] == "t" }?.int("i"))
        let again = Self.decoder(screen, frames: reportedAt[1]..<(screen.images.count - 1))
        let resent = try #require(again.commands.first { $0.keys["a"] == "t" }, "the missing page is sent again")
        let newID = try #require(resent.int("i"))
        #expect(again.images[newID]?.pixels == first.images[firstID]?.pixels, "the same pixels")
        let placed = try #require(again.placements.values.first { $0.image == newID }, "and placed")
        let before = try #require(first.placements.values.first { $0.image == firstID })
        #expect(placed.cell == before.cell && placed.source == before.source && placed.z == KittyGraphicsCommands.pageZ,
                "where it was: \(placed.cell) \(placed.source) against \(before.cell) \(before.source)")
    }

    @Test func sixelPaintsThePageAndANudgeRepaintsOnlyCellsNearTheNote() throws {
        let screen = try Self.run(.sixel)
        let typed = Self.typedFrame(screen)
        let shown = Self.decoder(screen, frames: 0..<typed)
        #expect(!shown.sixels.isEmpty)
        // The paper's box on the canvas: the page at fit, on the grey backdrop.
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<shown.canvasHeight {
            for x in 0..<shown.canvasWidth {
                let pixel = shown.pixel(x, y)
                guard pixel.red > 245, pixel.green > 245, pixel.blue > 245 else { continue }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        #expect(maxX - minX > 300 && maxY - minY > 400, "the page shows: \(minX)…\(maxX) × \(minY)…\(maxY)")
        let poppler = try PopplerRender.page(1, of: TestPaths.sample, width: maxX - minX + 1, height: maxY - minY + 1)
        let difference = Self.meanDifference(shown, at: (minX, minY), poppler: poppler, skipRed: Self.redBox(shown))
        #expect(difference < 6, "the sixel page is poppler's page in 256 colours: mean difference \(difference)")

        let pageArea = Self.columns * Self.cell.width * (Self.rows - 2) * Self.cell.height
        var nudges = Self.decoder(screen, frames: 0..<(typed + 1))
        let before = Self.redBox(nudges)
        for index in (typed + 1)..<(screen.images.count) {
            let painted = nudges.sixels.count
            nudges.read(screen.images[index])
            let area = nudges.sixels[painted...].reduce(0) { $0 + $1.width * $1.height }
            #expect(area < pageArea / 5, "a nudge repaints \(area) pixels of \(pageArea)")
        }
        let after = try #require(Self.redBox(nudges))
        #expect(after.maxX > (before?.maxX ?? .max) + 3, "the note moved right: \(String(describing: before)) → \(after)")
    }

    @Test func throughTmuxThePageIsPlaceholderCellsAndTilesAndANudgeSendsOnlyItsTiles() throws {
        let screen = try Self.run(.kittyPlaceholders)
        let typed = Self.typedFrame(screen)
        let grid = try #require(screen.grids.last)
        let tiles = KittyPlaceholderPageImages.tiles(columns: Self.columns, rows: Self.rows - 2)
        // Away from the cursor and the note, each cell names its tile's image, its row and its column in the tile.
        for (index, tile) in tiles.enumerated() where tile.row >= 8 {
            for (column, row) in [(tile.column, tile.row), (tile.maxColumn - 1, tile.maxRow - 1)] {
                let cell = grid[column, row]
                let scalars = Array(cell.character.unicodeScalars).map(\.value)
                #expect(scalars == [0x10EEEE, KittyPlaceholders.marks[row - tile.row], KittyPlaceholders.marks[column - tile.column]],
                        "cell \(column),\(row)")
                #expect(cell.style.foreground == .indexed(UInt8(index + 1)), "cell \(column),\(row) names image \(index + 1)")
            }
        }
        let shown = Self.decoder(screen, frames: 0..<(typed + 1))
        let sent = shown.commands.filter { $0.keys["U"] == "1" }
        #expect(Set(sent.compactMap { $0.int("i") }).count == tiles.count, "every tile is sent")
        #expect(sent.allSatisfy { $0.wrapped }, "every escape goes through tmux's passthrough")
        for command in sent {
            let tile = tiles[command.int("i")! - 1]
            #expect(command.int("c") == tile.width && command.int("r") == tile.height)
            let image = try #require(shown.images[command.int("i")!])
            #expect(image.width == tile.width * Self.cell.width && image.height == tile.height * Self.cell.height)
        }
        let nudges = Self.decoder(screen, frames: (typed + 1)..<screen.images.count)
        let resent = Set(nudges.commands.filter { $0.keys["U"] == "1" }.compactMap { $0.int("i") })
        #expect(!resent.isEmpty && resent.count <= 4, "a nudge sends the tiles the note touched: \(resent.sorted())")
    }

    @Test func iterm2SendsThePageAsPNGsOfCellRectsAndANudgeOnlyItsCells() throws {
        let screen = try Self.run(.iterm2)
        let typed = Self.typedFrame(screen)
        /// Each OSC 1337 file: its size in cells and its PNG, read back by ImageMagick.
        func files(_ text: String) throws -> [(columns: Int, rows: Int, image: RenderedPage)] {
            var found: [(Int, Int, RenderedPage)] = []
            for part in text.components(separatedBy: "\u{1B}]1337;File=").dropFirst() {
                guard let colon = part.firstIndex(of: ":"), let end = part.firstIndex(of: "\u{07}") else { continue }
                let keys = Dictionary(part[..<colon].split(separator: ";").map { pair -> (String, String) in
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
                }, uniquingKeysWith: { a, _ in a })
                let png = try #require(Data(base64Encoded: String(part[part.index(after: colon)..<end])))
                #expect(keys["size"] == String(png.count) && keys["inline"] == "1" && keys["preserveAspectRatio"] == "0")
                let folder = TemporaryFolder()
                FileManager.default.createFile(atPath: folder.file("cells.png"), contents: png)
                let converted = try ProcessRunner.run("convert", [folder.file("cells.png"), "-depth", "8", "ppm:" + folder.file("cells.ppm")])
                #expect(converted.status == 0, "\(converted.stderr)")
                found.append((Int(keys["width"] ?? "") ?? 0, Int(keys["height"] ?? "") ?? 0,
                              try PopplerRender.image(atPPM: folder.file("cells.ppm"))))
            }
            return found
        }
        let first = try files(screen.images[0..<typed].joined())
        #expect(!first.isEmpty)
        for file in first {
            #expect(file.image.width == file.columns * Self.cell.width && file.image.height == file.rows * Self.cell.height,
                    "a PNG is its cells' pixels: \(file.columns)×\(file.rows) cells, \(file.image.width)×\(file.image.height)")
        }
        // The whole page area's cells (all but the cursor's) went before the note; a nudge sends far fewer.
        let firstCells = first.reduce(0) { $0 + $1.columns * $1.rows }
        #expect(firstCells > Self.columns * (Self.rows - 2) * 9 / 10, "\(firstCells) cells")
        for index in (typed + 1)..<(screen.images.count) {
            let cells = try files(screen.images[index]).reduce(0) { $0 + $1.columns * $1.rows }
            #expect(cells < firstCells / 5, "a nudge sends \(cells) cells")
        }
        // The largest file's pixels are the page's: paper where the page is white.
        let largest = try #require(first.max { $0.columns * $0.rows < $1.columns * $1.rows })
        let centre = largest.image.rgb(largest.image.width / 2, largest.image.height * 3 / 4)
        #expect(centre.red > 240 && centre.green > 240 && centre.blue > 240, "the page's paper: \(centre)")
    }
}
