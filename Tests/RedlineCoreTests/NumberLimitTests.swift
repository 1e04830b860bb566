import Foundation
import PropertyBased
import RedlineCore
import Testing

/// Numbers from documents are validated at the door, and the few conversions that could trap cannot.
@Suite struct NumberLimitTests {
    @Test func valuesPastTheSpecificationsLimitsReadAsAbsent() {
        #expect(PDFLimits.integer(90) == 90)
        #expect(PDFLimits.integer(Int64.max) == nil && PDFLimits.integer(Int64(Int32.max) + 1) == nil)
        #expect(PDFLimits.real(1e19) == 1e19 && PDFLimits.real(3.5e38) == nil)
        #expect(PDFLimits.real(.nan) == nil && PDFLimits.real(.infinity) == nil && PDFLimits.real(-.infinity) == nil)
        #expect(PDFLimits.flags(4) == 4 && PDFLimits.flags(Int64(UInt32.max)) == Int(UInt32.max))
        #expect(PDFLimits.flags(-1) == Int(UInt32.max), "a negative 32-bit field is its bit pattern")
        #expect(PDFLimits.flags(Int64.min) == nil && PDFLimits.flags(Int64(UInt32.max) + 1) == nil)
    }

    @Test func numbersAreWrittenSoEveryReaderCanReadThemBack() {
        #expect(PDFNumber.format(12.5) == "12.5" && PDFNumber.format(-0.00004) == "0" && PDFNumber.format(72) == "72")
        // Past 64-bit integers qpdf refuses an integer, so large values are written as reals.
        #expect(PDFNumber.format(1e20) == "100000000000000000000.0")
        #expect(PDFNumber.format(-1e30).hasSuffix(".0") && PDFNumber.format(-1e30).hasPrefix("-1000000000000000019884624838656"))
        #expect(PDFNumber.format(.infinity) == "0" && PDFNumber.format(.nan) == "0")
    }

    /// Numbers are written without `String(format:)` for speed; they must keep the digits printf's `%.4f` gives
    /// (trailing zeros dropped), since annotation ids without /NM are hashed from them.
    @Test func numbersKeepPrintfsDigits() {
        func printf(_ value: Double) -> String {
            let rounded = (value * 10_000).rounded() / 10_000
            if rounded == rounded.rounded() { return String(Int(rounded)) }
            var text = String(format: "%.4f", rounded)
            while text.hasSuffix("0") { text.removeLast() }
            return text
        }
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.00005, -0.00005, 0.00015, 1.23456, 612, 791.9999, 99_999.99995, -72.0001]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -4...9, using: &generator)
            values.append((Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 0..<1, using: &generator) * pow(10, magnitude))
            values.append(Double(Int.random(in: -2_000_000...2_000_000, using: &generator)) / 10_000)
        }
        let different = values.filter { PDFNumber.format($0) != printf($0) }
        #expect(different.isEmpty, "\(different.prefix(5).map { "\($0): \(PDFNumber.format($0)) vs \(printf($0))" })")
        #expect(DecimalText.padded(-5, width: 4) == String(format: "%04d", -5) && DecimalText.padded(7, width: 2) == "07")
        #expect(DecimalText.padded(123_456, width: 4) == "123456" && DecimalText.padded(Int.min, width: 2) == String(Int.min))
    }

    @Test func clampingConversionsNeverTrap() {
        #expect(Int(clamping: 1e30) == Int.max && Int(clamping: -1e30) == Int.min)
        #expect(Int(clamping: Double.nan) == 0 && Int(clamping: 41.9) == 41)
        let viewport = PageViewport(pageSize: Size(width: 1e20, height: 792), scale: 1, cellPixels: .standard,
                                    originPixel: (0, 0), columns: 80, rows: 24)
        #expect(viewport.rasterWidth == Int.max && viewport.cell(for: Point(x: 1e300, y: -1e300)) == (Int.max, Int.min))
    }

    @Test func overlaysOfOversizedPagesAreDrawnSmallerAndScaledBackUp() {
        let ordinary = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
        #expect(ordinary.overlayScale == 1 && ordinary.overlayFormTransform == ordinary.overlayTransform)
        let huge = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 1e20, y2: 792), rotation: .quarter)
        #expect(huge.overlayScale == PageGeometry.largestPageSide / 1e20)
        // A point of the scaled overlay lands where the unscaled one would.
        let point = Point(x: 300, y: 5e19)
        let scaled = huge.overlayFormTransform.apply(to: Point(x: point.x * huge.overlayScale, y: point.y * huge.overlayScale))
        let direct = huge.overlayTransform.apply(to: point)
        #expect(abs(scaled.x - direct.x) <= abs(direct.x) * 1e-9 + 1e-6 && abs(scaled.y - direct.y) <= abs(direct.y) * 1e-9 + 1e-6)
    }

    /// The eraser tests its whole way at once: the exact answer agrees with sampling the way finely, and a
    /// step of any length cannot jump a stroke.
    @Test func theEraserSegmentTestAgreesWithFineSampling() async {
        let coordinate = Gen.double(in: 0...200)
        let points = zip(coordinate, coordinate).map { Point(x: $0.0, y: $0.1) }
        await propertyCheck(input: points, points, points, points) { a, b, start, end in
            let radius = 3.0
            let exact = InkMarkup.stroke([a, b], passesWithin: radius, ofSegment: start, end)
            let steps = 4000
            let sampledDistance = (0...steps).map { step -> Double in
                let t = Double(step) / Double(steps)
                let p = Point(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
                return InkMarkup.stroke([a, b], passesWithin: radius, of: p) ? 0 : 1
            }.min()!
            // Sampling can only miss by the gap between samples (at most 200·√2 / 4000 ≈ 0.07 pt).
            if sampledDistance == 0 { #expect(exact) }
            if !exact {
                #expect(!InkMarkup.stroke([a, b], passesWithin: radius - 0.1, of: start))
                #expect(!InkMarkup.stroke([a, b], passesWithin: radius - 0.1, of: end))
            }
        }
        // A step straight across a stroke, from far on one side to far on the other, erases it.
        #expect(InkMarkup.stroke([Point(x: 100, y: 0), Point(x: 100, y: 10)], passesWithin: 1,
                                 ofSegment: Point(x: -1e9, y: 5), Point(x: 1e9, y: 5)))
    }
}
