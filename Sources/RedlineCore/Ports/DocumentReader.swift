/// Reads what Redline needs of a PDF: its pages' geometry, annotations, metadata and what had to be repaired.
/// The qpdf adapter implements it.
public protocol DocumentReader: Sendable {
    func describe(path: String, password: String?) throws -> DocumentDescription
}
