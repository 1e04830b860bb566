/// A PDF rectangle ([x1 y1 x2 y2] in user space, y up), normalised so that x1 < x2 and y1 < y2:
/// files write boxes upside down ([0 792 612 0]) and readers normalise them the same way.
public struct PDFBox: Sendable, Hashable, Codable {
    public var x1, y1, x2, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = min(x1, x2)
        self.x2 = max(x1, x2)
        self.y1 = min(y1, y2)
        self.y2 = max(y1, y2)
    }

    public init?(_ numbers: [Double]) {
        guard numbers.count == 4 else { return nil }
        self.init(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
    }

    public var width: Double { x2 - x1 }
    public var height: Double { y2 - y1 }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func intersection(_ other: PDFBox) -> PDFBox? {
        let box = PDFBox(x1: max(x1, other.x1), y1: max(y1, other.y1),
                         x2: min(x2, other.x2), y2: min(y2, other.y2))
        guard max(x1, other.x1) < min(x2, other.x2), max(y1, other.y1) < min(y2, other.y2) else { return nil }
        return box
    }
}
