import Foundation
import RedlineCore
import TerminalGrid

/// `redline search`'s output: a line per hit for people, a JSON array for scripts. Pages count from 1 and boxes
/// are in points from the page's top left, as in markup files; a page the document prints another number on
/// (`/PageLabels`) is shown with it too, as the editor's status line does.
public enum SearchReport {
    public static func text(_ hits: [SearchHit], labels: PageLabels = PageLabels()) -> String {
        hits.map { hit in
            "p\(hit.pageIndex + 1)\(printed(hit.pageIndex, labels).map { " (\(VisibleText.line($0, limit: 60)))" } ?? "")"
                + "  x \(number(hit.box.minX))  y \(number(hit.box.minY))  "
                + "width \(number(hit.box.width))  height \(number(hit.box.height))"
                + (hit.boxes.count > 1 ? "  (runs over \(hit.boxes.count) lines)" : "") + "\n"
        }.joined()
    }

    /// The page's label when it is not its number counted from 1.
    private static func printed(_ pageIndex: Int, _ labels: PageLabels) -> String? {
        labels.label(ofPage: pageIndex).flatMap { $0 == "\(pageIndex + 1)" ? nil : $0 }
    }

    public static func json(_ hits: [SearchHit], labels: PageLabels = PageLabels()) -> String {
        struct Box: Encodable {
            let x, y, width, height: Double
            init(_ rect: Rect) {
                (x, y, width, height) = (SearchReport.rounded(rect.minX), SearchReport.rounded(rect.minY),
                                         SearchReport.rounded(rect.width), SearchReport.rounded(rect.height))
            }
        }
        /// The first line's box, and every line's when the phrase runs over more than one.
        /// `label`: the page as the document prints it, when it labels its pages.
        struct Entry: Encodable {
            let page: Int
            let label: String?
            let x, y, width, height: Double
            let lines: [Box]?
        }
        let entries = hits.map { hit in
            let first = Box(hit.box)
            return Entry(page: hit.pageIndex + 1, label: labels.label(ofPage: hit.pageIndex), x: first.x, y: first.y,
                         width: first.width, height: first.height, lines: hit.boxes.count > 1 ? hit.boxes.map(Box.init) : nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (String(data: (try? encoder.encode(entries)) ?? Data("[]".utf8), encoding: .utf8) ?? "[]") + "\n"
    }

    /// Hundredths of a point: finer than any renderer places text.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private static func number(_ value: Double) -> String { PDFNumber.format(rounded(value)) }
}
