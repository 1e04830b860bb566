import Foundation
import Synchronization

extension XFDFAnnotationElement {
    /// Each element read as an annotation (`order` counting on from `firstOrder`), on as many cores as the machine
    /// has: each is read on its own, and 100,000 took 0.8 s on one. The results are in the elements' order; a part stops
    /// at its first fault, so what follows a fault is not read (the caller stops there too).
    static func annotations(from elements: [XMLTreeElement], pages: [PageGeometry],
                            firstOrder: Int) -> [Result<Annotation, any Error>] {
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, elements.count / 4096 + 1)
        @Sendable func read(_ range: Range<Int>) -> [Result<Annotation, any Error>] {
            var results: [Result<Annotation, any Error>] = []
            results.reserveCapacity(range.count)
            for index in range {
                let result = Result { try annotation(from: elements[index], pages: pages, order: firstOrder + index) }
                results.append(result)
                if case .failure = result { break }
            }
            return results
        }
        guard parts > 1 else { return read(0..<elements.count) }
        let size = (elements.count + parts - 1) / parts
        let done = Mutex<[Int: [Result<Annotation, any Error>]]>([:])
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (part * size)..<min(elements.count, (part + 1) * size)
            let results = read(range)
            done.withLock { $0[part] = results }
        }
        return done.withLock { parts in
            var all: [Result<Annotation, any Error>] = []
            all.reserveCapacity(elements.count)
            for part in parts.keys.sorted() {
                all += parts[part]!
                if case .failure? = parts[part]!.last { break }
            }
            return all
        }
    }
}
