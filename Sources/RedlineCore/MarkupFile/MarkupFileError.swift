/// Why a markup file was refused. The message names the item (counting from 1) and the field.
public struct MarkupFileError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    static func item(_ number: Int, field: String, _ problem: String) -> MarkupFileError {
        MarkupFileError("item \(number): field \"\(field)\": \(problem)")
    }

    public var description: String { message }
}
