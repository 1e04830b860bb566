import Foundation
import PDFRendering
import RedlineCore
import TestSupport
import Testing

/// Links and the outline as Redline reads them through poppler, against pikepdf's reading of the same file
/// (Tests/Tools/link_probe.py): a pdflatex book with 509 links (named destinations and URIs) and an outline.
@Suite struct LinkAndOutlineReadingTests {
    struct Probe: Decodable {
        struct Link: Decodable {
            let page: Int
            let rect: [Double]
            let uri: String?
            let targetPage: Int?
            let targetTop: Double?
        }
        struct Entry: Decodable {
            let title: String
            let targetPage: Int?
            let children: [Entry]
        }
        let links: [Link]
        let outline: [Entry]
    }

    static let book = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")

    func probe(_ path: String) throws -> Probe {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("link_probe.py"), path])
        guard result.status == 0 else { throw ToolFailure(tool: "link_probe.py", output: result.stderr) }
        return try JSONDecoder().decode(Probe.self, from: Data(result.stdout.utf8))
    }

    @Test func everyLinkHasPikepdfsAreaAndLeadsWherePikepdfSays() throws {
        let expected = try probe(Self.book)
        #expect(expected.links.count == 509)
        let document = try PopplerDocument(path: Self.book, password: nil)
        var read: [(Int, PageLink)] = []
        for page in 0..<document.pageCount { read += document.links(onPage: page).map { (page, $0) } }
        #expect(read.count == expected.links.count)
        for link in expected.links {
            let rect = Rect(x: link.rect[0], y: link.rect[1], width: link.rect[2], height: link.rect[3])
            let match = read.first { $0.0 == link.page && abs($0.1.rect.minX - rect.minX) < 0.01 && abs($0.1.rect.minY - rect.minY) < 0.01
                && abs($0.1.rect.width - rect.width) < 0.01 && abs($0.1.rect.height - rect.height) < 0.01 }
            guard let match = try? #require(match, "page \(link.page + 1): no link at \(rect)") else { continue }
            if let uri = link.uri {
                #expect(match.1.target == .uri(uri))
            } else {
                guard case .destination(let destination) = match.1.target else {
                    Issue.record("page \(link.page + 1): \(match.1.target) instead of a destination")
                    continue
                }
                #expect(destination.pageIndex == link.targetPage)
                if let top = link.targetTop {
                    #expect(abs((destination.top ?? -1) - top) < 0.01, "page \(link.page + 1) → \(destination) vs top \(top)")
                }
            }
        }
    }

    @Test func theOutlineIsPikepdfsTreeWithItsPages() throws {
        let expected = try probe(Self.book).outline
        let read = try PopplerDocument(path: Self.book, password: nil).outline()
        func compare(_ read: [OutlineEntry], _ expected: [Probe.Entry], path: String) {
            #expect(read.count == expected.count, "\(path): \(read.count) entries, pikepdf \(expected.count)")
            for (entry, wanted) in zip(read, expected) {
                #expect(entry.title == wanted.title)
                #expect(entry.destination?.pageIndex == wanted.targetPage, "\(wanted.title)")
                compare(entry.children, wanted.children, path: path + "/" + wanted.title)
            }
        }
        #expect(expected.count == 11)
        compare(read, expected, path: "")
    }

    @Test func aDocumentWithoutOutlineOrLinksReadsAsEmpty() throws {
        let document = try PopplerDocument(path: TestPaths.fixture("qpdf_boxes.pdf"), password: nil)
        #expect(document.outline().isEmpty)
        #expect((0..<document.pageCount).allSatisfy { document.links(onPage: $0).isEmpty })
        #expect(document.links(onPage: -1).isEmpty && document.links(onPage: 99).isEmpty)
    }
}
