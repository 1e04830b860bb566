/// A PDF transformation matrix [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f.
public struct AffineTransform: Sendable, Hashable, Codable {
    public var a, b, c, d, e, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f)
    }

    /// The transform that applies `self` first, then `next`.
    public func followed(by next: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * next.a + b * next.c,
            b: a * next.b + b * next.d,
            c: c * next.a + d * next.c,
            d: c * next.b + d * next.d,
            e: e * next.a + f * next.c + next.e,
            f: e * next.b + f * next.d + next.f)
    }

    public var inverted: AffineTransform {
        let determinant = a * d - b * c
        precondition(determinant != 0, "a page transform is never singular")
        let ia = d / determinant, ib = -b / determinant
        let ic = -c / determinant, id = a / determinant
        return AffineTransform(a: ia, b: ib, c: ic, d: id,
                               e: -(e * ia + f * ic), f: -(e * ib + f * id))
    }

    /// The six operands as a PDF `cm` operator would take them.
    public var pdfOperands: String {
        [a, b, c, d, e, f].map(PDFNumber.format).joined(separator: " ")
    }
}

/// Writes numbers the way PDF content streams want them: no exponent, no trailing zeros.
public enum PDFNumber {
    /// A number as a message shows it: as `format` writes it, or with an exponent past ten million (a coordinate of
    /// 1e300 is 301 digits written out) and below what `format` tells from 0.
    public static func shown(_ value: Double) -> String {
        guard value.isFinite, abs(value) >= 1e7 || (value != 0 && abs(value) < 1e-4) else { return format(value) }
        return String(format: "%.6g", value)
    }

    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // Past 2^53 a Double holds no fraction, and past Int's range it cannot become one. Written as a real
        // (with its point), since readers such as qpdf refuse integers beyond 64 bits.
        if abs(value) >= 9e15 { return String(format: "%.1f", value) }
        // In ten-thousandths as an integer: the digits `%.4f` would print, without formatting a string per number
        // (an id hashed for each of 100,000 annotations formats four numbers).
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 9e18 else {
            let rounded = scaled / 10_000
            if rounded == rounded.rounded() { return String(Int(rounded)) }
            var text = String(format: "%.4f", rounded)
            while text.hasSuffix("0") { text.removeLast() }
            return text
        }
        let tenThousandths = Int(scaled)
        let whole = tenThousandths.magnitude / 10_000
        var fraction = tenThousandths.magnitude % 10_000
        let sign = tenThousandths < 0 ? "-" : ""
        guard fraction != 0 else { return sign + String(whole) }
        var width = 4
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        return sign + String(whole) + "." + DecimalText.padded(Int(fraction), width: width)
    }
}
