import Foundation
import TestSupport
import Testing

/// The real `redline` in real graphical terminals under Xvfb: kitty (its graphics protocol) and xterm -ti vt340
/// (sixel). What the window shows is compared with poppler's render of the same page, before and after a nudge.
@Suite(.serialized) struct PixelsInRealTerminalsTests {
    /// A window running the editor on `page` of `file`, in a private state and config folder.
    final class TerminalWindow {
        let display: XDisplay
        let folder = TemporaryFolder()
        let process = Process()

        init(kitty: Bool, file: String, page: Int, xtermGeometry: String = "110x36+0+0", screen: (Int, Int) = (1024, 768)) throws {
            display = try XDisplay(width: screen.0, height: screen.1)
            var environment = display.environment
            environment["XDG_STATE_HOME"] = folder.file("state")
            environment["XDG_CONFIG_HOME"] = folder.file("config")
            // Named, not left to the probe: under a loaded CI machine a software-rendered terminal may answer later
            // than the probe's 100 ms.
            let command = "'\(TestPaths.redline)' --graphics \(kitty ? "kitty" : "sixel") --page \(page) '\(file)'; sleep 60"
            if kitty {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/kitty")
                process.arguments = ["--config", "NONE", "-o", "font_size=10", "-o", "remember_window_size=no",
                                     "-o", "initial_window_width=900", "-o", "initial_window_height=640", "sh", "-c", command]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/xterm")
                process.arguments = ["-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256", "-bg", "black", "-fg", "white", "-geometry", xtermGeometry,
                                     "-fa", "DejaVu Sans Mono", "-fs", "9", "-e", "sh", "-c", command]
            }
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Keys as a keyboard gives them (XTEST, through xdotool), to the terminal's window, given the focus first:
        /// without a window manager nobody else gives it.
        func type(_ text: String) throws {
            let window = try ProcessRunner.run("xdotool", ["search", "--pid", String(process.processIdentifier)],
                                               environment: display.environment, timeLimit: 20)
                .stdout.split(separator: "\n").first.map(String.init) ?? ""
            try ProcessRunner.run("xdotool", ["windowfocus", "--sync", window], environment: display.environment, timeLimit: 20)
            if let key = ["\r": "Return", "→": "Right", "⎋": "Escape"][text] {
                try ProcessRunner.run("xdotool", ["key", key], environment: display.environment, timeLimit: 20)
            } else {
                try ProcessRunner.run("xdotool", ["type", text], environment: display.environment, timeLimit: 20)
            }
            Thread.sleep(forTimeInterval: 0.3)
        }

        /// The left button pressed at `from`, the pointer moved to each of `through` (screen pixels; the window sits
        /// at the screen's corner), and released: what a hand drawing with the mouse gives the terminal.
        func drag(from: (x: Int, y: Int), through: [(x: Int, y: Int)]) throws {
            var arguments = ["mousemove", String(from.x), String(from.y), "mousedown", "1"]
            for point in through { arguments += ["mousemove", String(point.x), String(point.y), "sleep", "0.02"] }
            arguments += ["mouseup", "1"]
            try ProcessRunner.run("xdotool", arguments, environment: display.environment, timeLimit: 30)
            Thread.sleep(forTimeInterval: 0.5)
        }

        /// A screenshot once the page shows (a white page on the dark screen) and stays the same.
        func settledScreenshot() throws -> RenderedPage {
            try settledScreenshot { $0.box(where: Self.paper) != nil }
        }

        /// A screenshot once `ready` holds for it and the screen stays the same.
        func settledScreenshot(until ready: (RenderedPage) -> Bool) throws -> RenderedPage {
            var last: RenderedPage?
            var everReady = false, everStill = false
            for _ in 0..<60 {
                Thread.sleep(forTimeInterval: 0.5)
                let shot = try display.screenshot()
                let still = last?.pixelsEqual(shot) ?? false, isReady = ready(shot)
                if still, isReady { return shot }
                (everReady, everStill) = (everReady || isReady, everStill || still)
                last = shot
            }
            // What the screen showed last, and which of the two never came, for a failure on a loaded machine.
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent("redline-unsettled-\(UUID().uuidString).ppm").path
            last?.write(to: kept)
            throw ToolFailure(tool: "screenshot", output: "the screen never settled (\(everReady ? "it was ready at times" : "never what was awaited"); "
                              + "\(everStill ? "it stood still at times" : "it never stood still")); the last screenshot: \(kept)")
        }

        /// Writes `bytes` to the terminal as if a program in it had: to the editor's own tty.
        func writeToTerminal(_ bytes: String) throws {
            // The editor is the terminal's descendant named redline (kitty starts helpers of its own).
            let rows = try ProcessRunner.run("ps", ["-e", "-o", "pid=,ppid=,tty=,comm="], timeLimit: 10).stdout
                .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count >= 4 }
            let parents = Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
            func descends(_ pid: String) -> Bool {
                var current = pid
                for _ in 0..<16 {
                    guard let parent = parents[current] else { return false }
                    if parent == String(process.processIdentifier) { return true }
                    current = parent
                }
                return false
            }
            let tty = rows.first { $0[3] == "redline" && descends($0[0]) }?[2] ?? ""
            guard tty.hasPrefix("pts/"), let handle = FileHandle(forWritingAtPath: "/dev/" + tty) else {
                throw ToolFailure(tool: "ps", output: "no terminal found for the editor: '\(tty)'")
            }
            handle.write(Data(bytes.utf8))
            try handle.close()
        }

        static func paper(_ red: Int, _ green: Int, _ blue: Int) -> Bool { red > 245 && green > 245 && blue > 245 }

        deinit {
            // As the display's server: SIGTERM may be blocked in what a test thread starts.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The page's place on screen: the paper from its top-left corner, as far right as its top margin runs and as far
    /// down as the backdrop beside it does (below the page, a light status line may touch it).
    static func pageBox(_ shot: RenderedPage) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let paper = shot.box(where: TerminalWindow.paper) else { return nil }
        let top = paper.y + 2
        guard let left = (paper.x..<(paper.x + paper.width)).first(where: { isPaper(shot, $0, top) }) else { return nil }
        var right = left
        while right + 1 < shot.width, isPaper(shot, right + 1, top) { right += 1 }
        var bottom = top
        while bottom + 1 < shot.height, isPaper(shot, left + 1, bottom + 1), left < 3 || !isPaper(shot, left - 3, bottom + 1) {
            bottom += 1
        }
        return (left, paper.y, right - left + 1, bottom - paper.y + 1)
    }

    static func isPaper(_ shot: RenderedPage, _ x: Int, _ y: Int) -> Bool {
        let pixel = shot.rgb(x, y)
        return TerminalWindow.paper(pixel.red, pixel.green, pixel.blue)
    }

    /// The mean difference per channel between the screen's page and poppler's, leaving out `skip` boxes.
    static func meanDifference(_ shot: RenderedPage, box: (x: Int, y: Int, width: Int, height: Int), poppler: RenderedPage,
                               skip: [(x: Int, y: Int, width: Int, height: Int)]) -> Double {
        var total = 0, count = 0
        for y in 0..<min(box.height, poppler.height) {
            for x in 0..<min(box.width, poppler.width) {
                let (sx, sy) = (box.x + x, box.y + y)
                if skip.contains(where: { sx >= $0.x && sx < $0.x + $0.width && sy >= $0.y && sy < $0.y + $0.height }) { continue }
                let a = shot.rgb(sx, sy), b = poppler.rgb(x, y)
                total += abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue)
                count += 1
            }
        }
        return Double(total) / Double(max(1, count * 3))
    }

    static func red(_ red: Int, _ green: Int, _ blue: Int) -> Bool { red > 150 && green < 90 && blue < 90 }
    /// What a selected note draws: its red text, the red cursor cell, and the orange outline around it.
    static func noteInk(_ red: Int, _ green: Int, _ blue: Int) -> Bool { red > 150 && green < 190 && blue < 90 }

    func check(kitty: Bool) throws {
        let file = TestPaths.sample
        let window = try TerminalWindow(kitty: kitty, file: file, page: 4)
        let first = try window.settledScreenshot()
        first.keep(as: kitty ? "kitty-first" : "xterm-first")
        guard let box = Self.pageBox(first) else { Issue.record("no page shows as pixels"); return }
        #expect(box.width > 200 && box.height > 300, "a page, not a cell: \(box)")
        // The cursor cell, red, is the screen's own.
        let cursor = first.box(where: Self.red, within: box)
        let poppler = try PopplerRender.page(4, of: file, width: box.width, height: box.height)
        let shown = Self.meanDifference(first, box: box, poppler: poppler,
                                        skip: cursor.map { [($0.x - 2, $0.y - 2, $0.width + 4, $0.height + 4)] } ?? [])
        #expect(shown < 4, "the page is poppler's page, pixel for pixel but for scaling: mean difference \(shown)")

        try window.type("t")
        try window.type("OK")
        try window.type("\r")
        let typed = try window.settledScreenshot()
        typed.keep(as: kitty ? "kitty-typed" : "xterm-typed")
        guard let before = typed.box(where: Self.red, within: box) else { Issue.record("the note shows in red"); return }
        for _ in 0..<8 { try window.type("→") }
        let nudged = try window.settledScreenshot()
        nudged.keep(as: kitty ? "kitty-nudged" : "xterm-nudged")
        guard let after = nudged.box(where: Self.red, within: box) else { Issue.record("the note still shows"); return }
        // The cursor's red cell stays where the note was typed; the note's right edge moves.
        #expect(after.x + after.width > before.x + before.width + 3, "the note moved right: \(before) → \(after)")
        #expect(abs(after.y - before.y) <= 1, "and not up or down: \(before) → \(after)")
        // Away from the note's old and new places (its outline included) the page did not change.
        guard let drawnBefore = typed.box(where: Self.noteInk, within: box), let drawnAfter = nudged.box(where: Self.noteInk, within: box)
        else { Issue.record("the note's outline shows"); return }
        let around = (x: min(drawnBefore.x, drawnAfter.x) - 24, y: min(drawnBefore.y, drawnAfter.y) - 24,
                      width: max(drawnBefore.x + drawnBefore.width, drawnAfter.x + drawnAfter.width) - min(drawnBefore.x, drawnAfter.x) + 48,
                      height: max(drawnBefore.y + drawnBefore.height, drawnAfter.y + drawnAfter.height) - min(drawnBefore.y, drawnAfter.y) + 48)
        var changed = 0
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) {
                if x >= around.x && x < around.x + around.width && y >= around.y && y < around.y + around.height { continue }
                if typed.rgb(x, y) != nudged.rgb(x, y) { changed += 1 }
            }
        }
        #expect(changed == 0, "\(changed) pixels of the page changed away from the note")
        let unchanged = Self.meanDifference(nudged, box: box, poppler: poppler, skip: [around])
        #expect(unchanged < 4, "the rest of the page is still poppler's: \(unchanged)")
    }

    /// `I` in a pixel mode: the page's own pixels turned (lightness over, hue kept, greys between #1C1C1E and
    /// #E8E6E3), compared with poppler's page turned here by the same arithmetic, written out again.
    func checkDark(kitty: Bool) throws {
        let file = TestPaths.sample
        let window = try TerminalWindow(kitty: kitty, file: file, page: 4)
        let first = try window.settledScreenshot()
        guard let box = Self.pageBox(first) else { Issue.record("no page shows as pixels"); return }
        try window.type("I")
        let dark = try window.settledScreenshot { shot in
            let pixel = shot.rgb(box.x + box.width / 2, box.y + 3)
            return pixel.red + pixel.green + pixel.blue < 150
        }
        dark.keep(as: kitty ? "kitty-dark" : "xterm-dark")
        let poppler = try PopplerRender.page(4, of: file, width: box.width, height: box.height)
        var total = 0, count = 0
        let cursor = dark.box(where: Self.red, within: box)
        for y in 0..<min(box.height, poppler.height) {
            for x in 0..<min(box.width, poppler.width) {
                let (sx, sy) = (box.x + x, box.y + y)
                if let cursor, sx >= cursor.x - 2, sx < cursor.x + cursor.width + 2, sy >= cursor.y - 2, sy < cursor.y + cursor.height + 2 { continue }
                let page = poppler.rgb(x, y), shown = dark.rgb(sx, sy)
                let shift = 255 - max(page.red, page.green, page.blue) - min(page.red, page.green, page.blue)
                func turned(_ value: Int, _ low: Int, _ high: Int) -> Int { low + (high - low) * (value + shift) / 255 }
                total += abs(shown.red - turned(page.red, 0x1C, 0xE8)) + abs(shown.green - turned(page.green, 0x1C, 0xE6))
                    + abs(shown.blue - turned(page.blue, 0x1E, 0xE3))
                count += 1
            }
        }
        let difference = Double(total) / Double(max(1, count * 3))
        // Sixel's 256 colour registers hold the page's dark greys a step or two apart (4.6 here); kitty's are exact.
        #expect(difference < (kitty ? 4 : 6), "the dark page is poppler's page turned: mean difference \(difference)")
    }

    @Test func kittyShowsADarkPageAsPopplersPageTurned() throws {
        try checkDark(kitty: true)
    }

    @Test func xtermShowsADarkPageAsPopplersPageTurned() throws {
        try checkDark(kitty: false)
    }

    @Test func kittyShowsThePageAsPopplerDrawsItAndANudgeMovesOnlyTheNote() throws {
        try check(kitty: true)
    }

    /// kitty drops images when its store is full. Here everything is deleted behind the editor's back; the next
    /// scroll places the page, kitty answers that it has no such image, and the editor sends it again.
    @Test func kittyGetsThePageAgainAfterLosingItsImages() throws {
        let window = try TerminalWindow(kitty: true, file: TestPaths.sample, page: 4)
        _ = try window.settledScreenshot()
        // Zoomed in, a scroll places the page again with another source rectangle.
        try window.type("z")
        try window.type("z")
        let wide = try window.settledScreenshot()
        wide.keep(as: "kitty-wide")
        guard let shown = Self.pageBox(wide) else { Issue.record("no page shows as pixels"); return }
        try window.writeToTerminal("\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
        var lost = false
        for _ in 0..<20 where !lost {
            Thread.sleep(forTimeInterval: 0.5)
            lost = try window.display.screenshot().box(where: TerminalWindow.paper).map { $0.width * $0.height < 2_000 } ?? true
        }
        #expect(lost, "kitty no longer shows the page")
        try window.type("j")
        let back = try window.settledScreenshot()
        back.keep(as: "kitty-resent")
        guard let box = Self.pageBox(back) else { Issue.record("the page shows again"); return }
        #expect(box.width >= shown.width - 2 && box.height > 300, "the whole page area: \(box) against \(shown)")
    }

    @Test func xtermShowsThePageAsSixelsAndANudgeMovesOnlyTheNote() throws {
        try check(kitty: false)
    }

    /// xterm with its default resources shows no sixel image larger than 1000×1000 pixels (maxGraphicSize): in a
    /// window wider than that the page used to show as a strip around the cursor. Sent in pieces within the size the
    /// terminal reports (XTSMGRAPHICS), the whole page shows, as tall as the window lets it.
    @Test func xtermWiderThanItsLargestImageShowsTheWholePage() throws {
        let window = try TerminalWindow(kitty: false, file: TestPaths.sample, page: 1, xtermGeometry: "200x50+0+0", screen: (1600, 1000))
        let shot = try window.settledScreenshot()
        shot.keep(as: "xterm-wide")
        guard let page = Self.pageBox(shot) else { Issue.record("no page shows as pixels"); return }
        #expect(page.height > 450 && page.width > 350, "the page shows whole: \(page)")
        // Paper all the way down the page's middle column: no strip missing.
        let column = page.x + page.width / 2
        let papered = (page.y..<(page.y + page.height)).filter { let p = shot.rgb(column, $0); return TerminalWindow.paper(p.red, p.green, p.blue) }.count
        #expect(Double(papered) > Double(page.height) * 0.7, "\(papered) of \(page.height) rows are paper")
    }

    /// xterm reports the mouse in pixels (mode 1016): a stroke drawn by hand, 3 pixels right and 1 down per report,
    /// keeps every report and lies on the pointer's straight line. With cell reports (7×14-pixel cells here) the
    /// same drag gives one point per cell on a staircase, at most half as many points and up to half a cell off.
    @Test func xtermInkDrawnWithTheMouseFollowsThePointerWithinCells() throws {
        let window = try TerminalWindow(kitty: false, file: TestPaths.sample, page: 1)
        let first = try window.settledScreenshot()
        guard let box = Self.pageBox(first) else { Issue.record("no page shows as pixels"); return }
        try window.type("i")
        let start = (x: box.x + 60, y: box.y + 200)
        let steps = 40
        try window.drag(from: start, through: (1...steps).map { (x: start.x + 3 * $0, y: start.y + $0) })
        try window.type("⎋")
        let saved = window.folder.file("drawn.pdf")
        try window.type(":wa \(saved)")
        try window.type("\r")
        var strokes: [[[Double]]] = []
        for _ in 0..<20 where strokes.isEmpty {
            Thread.sleep(forTimeInterval: 0.5)
            if FileManager.default.fileExists(atPath: saved) {
                strokes = (try? MuPDFProbe.annotations(in: saved))?.first?.annotations.filter { $0.type == "Ink" }.flatMap(\.ink) ?? []
            }
        }
        guard strokes.count == 1, let points = strokes.first, let head = points.first, let tail = points.last else {
            Issue.record("one stroke saved: \(strokes)"); return
        }
        #expect(points.count >= steps - 2, "a point per report, not per cell: \(points.count)")
        // The pointer went 3 right for 1 down; so must the stroke, and every point must sit on that line.
        let (dx, dy) = (tail[0] - head[0], tail[1] - head[1])
        #expect(dx > 0 && abs(dy / dx - 1.0 / 3.0) < 0.02, "the stroke's slope is the pointer's: \(dy / dx)")
        let length = (dx * dx + dy * dy).squareRoot()
        let farthest = points.map { abs(($0[0] - head[0]) * dy - ($0[1] - head[1]) * dx) / length }.max() ?? 0
        #expect(farthest < 0.5, "every point on the pointer's line, within half a point: \(farthest)")
    }
}

extension RenderedPage {
    /// Kept for a person to look at when REDLINE_KEEP_SCREENS names a folder.
    func keep(as name: String) {
        guard let folder = ProcessInfo.processInfo.environment["REDLINE_KEEP_SCREENS"] else { return }
        write(to: folder + "/" + name + ".ppm")
    }

    func write(to path: String) {
        var data = Data("P6 \(width) \(height) 255\n".utf8)
        data.append(contentsOf: ppmPixels)
        FileManager.default.createFile(atPath: path, contents: data)
    }

    func pixelsEqual(_ other: RenderedPage) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in Swift.stride(from: 0, to: height, by: 3) {
            for x in Swift.stride(from: 0, to: width, by: 3) where rgb(x, y) != other.rgb(x, y) { return false }
        }
        return true
    }
}
