import Foundation
import Editor
import RedlineCore
import TerminalGrid

/// Renders pages off the editor's loop, one at a time, on its own thread: the loop keeps answering keys while
/// poppler draws a large page. At most one render runs and one waits; a newer request replaces the waiting one,
/// so holding PageDown renders the page the reviewer stops on, not every page passed. Poppler documents are
/// not thread-safe: renders run one after another and the loop never renders itself while a session runs, so a
/// document is never used by two threads at once.
final class PageRendering: @unchecked Sendable {
    typealias Key = PagePictureMaker.RasterKey

    /// What a finished render hands to the loop.
    struct Finished: @unchecked Sendable {
        let key: Key
        /// Nil for a page read ahead for its text only.
        let raster: PageRaster?
        /// Which renderer made it: a raster of a document since replaced (`:w!`) is dropped.
        let renderer: ObjectIdentifier
        /// A page read ahead: its whole picture too, for the scene it was made for.
        var prefetched: (scene: PageScene, picture: CellGrid)?
        /// A page read ahead: its links and words, read where it was rendered.
        var text: (links: [PageLink], words: [PageWord])?
    }

    /// A page made ahead of need: its picture (unless made already, or the text view shows) and its links and
    /// words (unless read already), on the render thread, from the renderer's own poppler document.
    struct Ahead: @unchecked Sendable {
        let page: Int
        let picture: PagePictureMaker.Prefetch?
        let renderer: any PageRenderer
        let textReader: (any DocumentNavigating & PageTextReading)?
    }

    private let lock = NSLock()
    private var running: Key?
    private var waiting: (key: Key, renderer: any PageRenderer)?
    private var prefetching = false
    private var finished: [Finished] = []
    private let done = DispatchSemaphore(value: 0)
    private var closed = false
    private let beforeRendering: @Sendable (Int) -> Void
    private let threads: BackgroundThreads
    /// Called on the render thread when a raster is ready.
    var onFinished: @Sendable () -> Void = {}

    init(threads: BackgroundThreads, beforeRendering: @escaping @Sendable (Int) -> Void) {
        self.threads = threads
        self.beforeRendering = beforeRendering
    }

    /// The session is ending: nothing new starts, and the page waiting its turn is never rendered.
    func close() {
        lock.lock()
        closed = true
        waiting = nil
        lock.unlock()
    }

    /// Asks for a raster. False when it was asked for already (it is being rendered, or waits its turn): the
    /// loop then does not wait for it again.
    @discardableResult
    func request(_ key: Key, from renderer: any PageRenderer) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, running != key, waiting?.key != key else { return false }
        guard running == nil, !prefetching else {
            waiting = (key, renderer)
            return true
        }
        start(key, renderer)
        return true
    }

    /// Waits up to `milliseconds` for a render to finish: a page that renders quickly is shown at once
    /// instead of after a blank frame.
    func waitBriefly(milliseconds: Int) {
        _ = done.wait(timeout: .now() + .milliseconds(milliseconds))
    }

    /// The rasters finished since the last call.
    func takeFinished() -> [Finished] {
        lock.lock()
        defer { lock.unlock() }
        let taken = finished
        finished.removeAll()
        return taken
    }

    var isBusy: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running != nil || prefetching
    }

    /// Makes a page ahead of need (the next or previous one) while nothing else is being rendered: false, and
    /// nothing done, when something is. A page asked for meanwhile waits for it, as for any render.
    @discardableResult
    func prefetch(_ ahead: Ahead) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, running == nil, !prefetching else { return false }
        prefetching = true
        let beforeRendering = beforeRendering
        threads.start { [self] in
            if let work = ahead.picture, work.raster == nil { beforeRendering(work.key.page) }
            let made = ahead.picture?.make()
            let text = ahead.textReader.map { ($0.links(onPage: ahead.page), $0.words(onPage: ahead.page)) }
            hand(Finished(key: ahead.picture?.key ?? Key(page: ahead.page, scale: 0), raster: made?.raster,
                          renderer: ObjectIdentifier(ahead.renderer),
                          prefetched: made.flatMap { made in ahead.picture.map { ($0.scene, made.picture) } }, text: text))
        }
        return true
    }

    /// Called with the lock held.
    private func start(_ key: Key, _ renderer: any PageRenderer) {
        running = key
        let beforeRendering = beforeRendering
        threads.start { [self] in
            beforeRendering(key.page)
            let raster = key.render(with: renderer)
            hand(Finished(key: key, raster: raster, renderer: ObjectIdentifier(renderer)))
        }
    }

    /// On the render thread, when a render or a page made ahead is done: hands it to the loop, and starts the
    /// page asked for meanwhile, unless it is the one just made. One job runs at a time, so this ends it.
    private func hand(_ result: Finished) {
        lock.lock()
        finished.append(result)
        running = nil
        prefetching = false
        if let next = waiting {
            waiting = nil
            if next.key != result.key { start(next.key, next.renderer) }
        }
        lock.unlock()
        done.signal()
        onFinished()
    }
}
