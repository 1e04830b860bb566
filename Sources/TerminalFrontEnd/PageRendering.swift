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
        let raster: PageRaster
        /// Which renderer made it: a raster of a document since replaced (`:w!`) is dropped.
        let renderer: ObjectIdentifier
        /// A page read ahead: its whole picture too, for the scene it was made for.
        var prefetched: (scene: PageScene, picture: CellGrid)?
    }

    private let lock = NSLock()
    private var running: Key?
    private var waiting: (key: Key, renderer: any PageRenderer)?
    private var prefetching = false
    private var finished: [Finished] = []
    private let done = DispatchSemaphore(value: 0)
    private let beforeRendering: @Sendable (Int) -> Void
    /// Called on the render thread when a raster is ready.
    var onFinished: @Sendable () -> Void = {}

    init(beforeRendering: @escaping @Sendable (Int) -> Void) {
        self.beforeRendering = beforeRendering
    }

    /// Asks for a raster. False when it was asked for already (it is being rendered, or waits its turn): the
    /// loop then does not wait for it again.
    @discardableResult
    func request(_ key: Key, from renderer: any PageRenderer) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard running != key, waiting?.key != key else { return false }
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
    func prefetch(_ work: PagePictureMaker.Prefetch) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard running == nil, !prefetching else { return false }
        prefetching = true
        let beforeRendering = beforeRendering
        Thread.detachNewThread { [self] in
            if work.raster == nil { beforeRendering(work.key.page) }
            let made = work.make()
            lock.lock()
            finished.append(Finished(key: work.key, raster: made.raster, renderer: work.rendererIdentity,
                                     prefetched: (work.scene, made.picture)))
            prefetching = false
            if let next = waiting {
                waiting = nil
                // The page asked for while it was being made ahead is made now.
                if next.key != work.key { start(next.key, next.renderer) }
            }
            lock.unlock()
            done.signal()
            onFinished()
        }
        return true
    }

    /// Called with the lock held.
    private func start(_ key: Key, _ renderer: any PageRenderer) {
        running = key
        let beforeRendering = beforeRendering
        Thread.detachNewThread { [self] in
            beforeRendering(key.page)
            let raster = renderer.render(page: key.page, scale: key.scale)
            lock.lock()
            finished.append(Finished(key: key, raster: raster, renderer: ObjectIdentifier(renderer)))
            running = nil
            if let next = waiting {
                waiting = nil
                if next.key != key { start(next.key, next.renderer) }
            }
            lock.unlock()
            done.signal()
            onFinished()
        }
    }
}
