import Foundation
import RedlineCore

/// `redline search`'s output: a line per hit for people, a JSON array for scripts. Pages count from 1 and boxes
/// are in points from the page's top left, as in markup files.
public enum SearchReport {
    public static func text(_ hits: [SearchHit]) -> String {
        hits.map { hit in
            "p\(hit.pageIndex + 1)  x \(number(hit.box.minX))  y \(number(hit.box.minY))  "
                + "width \(number(hit.box.width))  height \(number(hit.box.height))\n"
        }.joined()
    }

    public static func json(_ hits: [SearchHit]) -> String {
        struct Entry: Encodable {
            let page: Int
            let x, y, width, height: Double
        }
        let entries = hits.map { Entry(page: $0.pageIndex + 1, x: rounded($0.box.minX), y: rounded($0.box.minY),
                                       width: rounded($0.box.width), height: rounded($0.box.height)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (String(data: (try? encoder.encode(entries)) ?? Data("[]".utf8), encoding: .utf8) ?? "[]") + "\n"
    }

    /// Hundredths of a point: finer than any renderer places text.
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private static func number(_ value: Double) -> String { PDFNumber.format(rounded(value)) }
}
