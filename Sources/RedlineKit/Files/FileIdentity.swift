import Foundation
import PDFAssembly
import RedlineCore

extension FileIdentity {
    /// The file at `path` now, or nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }
}
