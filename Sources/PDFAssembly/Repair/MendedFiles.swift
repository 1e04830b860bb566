import RedlineCore
import Synchronization

/// Files found, once read, to hold objects qpdf cannot read and the repair's scan can (`CrossReferenceRebuilder`'s
/// mending): a file whose cross-reference is intact is read lazily, so qpdf meets such an object only when a page or
/// an annotation asks for it, after the file was opened. The save that follows in the same process opens the file
/// again and reads it from the mended copy at once, as the description was.
enum MendedFiles {
    private static let files = Mutex<Set<FileIdentity>>([])

    static func contains(_ file: FileIdentity) -> Bool { files.withLock { $0.contains(file) } }

    static func insert(_ file: FileIdentity) { files.withLock { _ = $0.insert(file) } }
}
