import Foundation
import RedlineCore

/// `redline search`'s output: a line per hit for people, a JSON array for scripts. Pages count from 1 and boxes
/// are in points from the page's top left, as in markup files.
public enum SearchReport {
    public static func text(_ hits: [SearchHit]) -> String {
        hits.map { hit in
            "p\(hit.pageIndex + 1)  x \(number(hit.box.minX))  y \(number(hit.box.minY))  "
                + "width \(number(hit.box.width))  height \(number(hit.box.height))"
                + (hit.boxes.count > 1 ? "  (runs over \(hit.boxes.count) lines)" : "") + "\n"
        }.joined()
    }

    public static func json(_ hits: [SearchHit]) -> String {
        struct Box: Encodable {
            let x, y, width, height: Double
            init(_ rect: Rect) {
                (x, y, width, height) = (SearchReport.rounded(rect.minX), SearchReport.rounded(rect.minY),
                                         SearchReport.rounded(rect.width), SearchReport.rounded(rect.height))
            }
        }
        /// The first line's box, and every line's when the phrase runs over more than one.
        struct Entry: Encodable {
            let page: Int
            let x, y, width, height: Double
            let lines: [Box]?
        }
        let entries = hits.map { hit in
            let first = Box(hit.box)
            return Entry(page: hit.pageIndex + 1, x: first.x, y: first.y, width: first.width, height: first.height,
                         lines: hit.boxes.count > 1 ? hit.boxes.map(Box.init) : nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (String(data: (try? encoder.encode(entries)) ?? Data("[]".utf8), encoding: .utf8) ?? "[]") + "\n"
    }

    /// Hundredths of a point: finer than any renderer places text.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private static func number(_ value: Double) -> String { PDFNumber.format(rounded(value)) }
}
