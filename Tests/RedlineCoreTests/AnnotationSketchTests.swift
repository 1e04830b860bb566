import Foundation
import RedlineCore
import Testing

/// What the painter draws from an annotation's keys alone, read from XFDF as another tool writes it.
@Suite struct AnnotationSketchTests {
    static let page = [PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792), cropBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792),
                                    rotation: .none)]

    func sketches(_ annots: String) throws -> [String: AnnotationSketch] {
        let xfdf = "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><annots>\(annots)</annots></xfdf>"
        let annotations = try XFDF.command(from: Array(xfdf.utf8), pages: Self.page).add
        return Dictionary(uniqueKeysWithValues: annotations.compactMap { annotation in AnnotationSketch(annotation).map { (annotation.id.rawValue, $0) } })
    }

    @Test func shapesKeepTheirStrokeFillWidthAndDashesInsideTheirRect() throws {
        let drawn = try sketches("""
            <square page="0" name="box" rect="100,600,200,700" color="#FF0000" interior-color="#00FF00" width="4" \
            fringe="10,10,10,10" style="dash" dashes="6,2"/>
            <circle page="0" name="ring" rect="300,600,400,650" color="#0000FF"/>
            <square page="0" name="invisible" rect="100,100,200,200" width="0"/>
            """)
        let box = try #require(drawn["box"])
        // /RD 10 on each side, then half the 4-point line: display y runs down from the top (792 − 700 = 92).
        #expect(box.shape == .rectangle(Rect(x: 112, y: 104, width: 76, height: 76)))
        #expect(box.stroke == RGBColor(red: 255, green: 0, blue: 0) && box.fill == RGBColor(red: 0, green: 255, blue: 0))
        #expect(box.width == 4 && box.dashes == [6, 2])
        #expect(drawn["ring"]?.shape == .ellipse(Rect(x: 300.5, y: 142.5, width: 99, height: 49)))
        // No line and no fill: nothing to draw.
        #expect(drawn["invisible"] == nil)
    }

    @Test func linesAndPolylinesKeepTheirEndsAndPolygonsClose() throws {
        let drawn = try sketches("""
            <line page="0" name="arrow" rect="0,0,612,792" start="100,700" end="300,500" head="OpenArrow" tail="Circle" color="#000000"/>
            <polyline page="0" name="zigzag" rect="0,0,612,792" head="None" tail="ClosedArrow" color="#000000"><vertices>10,10;20,30;30,10</vertices></polyline>
            <polygon page="0" name="triangle" rect="0,0,612,792" color="#000000" interior-color="#FFFF00"><vertices>10,10;20,30;30,10</vertices></polygon>
            """)
        let arrow = try #require(drawn["arrow"])
        #expect(arrow.shape == .path([[Point(x: 100, y: 92), Point(x: 300, y: 292)]], closed: false))
        #expect(arrow.endings == [.openArrow, .circle])
        // The ends reach past the points: the bounds hold the arrow head.
        #expect(arrow.bounds.minX < 100 && arrow.bounds.maxY > 292)
        #expect(drawn["zigzag"]?.endings == [nil, .closedArrow])
        #expect(drawn["triangle"]?.shape == .path([[Point(x: 10, y: 782), Point(x: 20, y: 762), Point(x: 30, y: 782)]], closed: true))
        #expect(drawn["triangle"]?.endings == [])
    }

    @Test func notesStampsCaretsAndSquigglesAreDrawnAsReadersDoWithoutAnAppearance() throws {
        let drawn = try sketches("""
            <text page="0" name="note" rect="50,700,76,726" color="#FFFF00"/>
            <text page="0" name="pin" rect="50,600,50,600"/>
            <stamp page="0" name="stamp" rect="300,300,450,350" icon="NotApproved"/>
            <stamp page="0" name="custom" rect="300,200,450,250" icon="#SBConfidential" color="#0000FF"/>
            <caret page="0" name="caret" rect="100,100,110,106"/>
            <squiggly page="0" name="squiggle" rect="100,100,200,120" coords="100,120,200,120,100,100,200,100"/>
            """)
        #expect(drawn["note"]?.shape == .note(Rect(x: 50, y: 66, width: 26, height: 26)))
        #expect(drawn["note"]?.fill == RGBColor(red: 255, green: 255, blue: 0))
        // A note without an area gets the usual icon, in the usual yellow.
        #expect(drawn["pin"]?.shape == .note(Rect(x: 50, y: 192, width: 20, height: 20)))
        #expect(drawn["stamp"]?.shape == .stamp(Rect(x: 300, y: 442, width: 150, height: 50), words: "NOT APPROVED"))
        #expect(drawn["custom"]?.shape == .stamp(Rect(x: 300, y: 542, width: 150, height: 50), words: "CONFIDENTIAL"))
        #expect(drawn["custom"]?.stroke == RGBColor(red: 0, green: 0, blue: 255))
        #expect(drawn["caret"]?.shape == .path([[Point(x: 100, y: 692), Point(x: 105, y: 686), Point(x: 110, y: 692)]], closed: false))
        guard case .path(let strokes, false)? = drawn["squiggle"]?.shape else {
            Issue.record("a squiggly is a zigzag")
            return
        }
        #expect(strokes.count == 1 && strokes[0].count > 10 && strokes[0].allSatisfy { $0.y >= 692 - 20.0 / 6 && $0.y <= 692 })
    }

    @Test func kindsDrawnAsMarkupOrNotAtAllHaveNoSketch() throws {
        let drawn = try sketches("""
            <freetext page="0" name="words" rect="10,10,100,30"><contents>Hi</contents></freetext>
            <ink page="0" name="ink" rect="10,10,100,30"><inklist><gesture>10,10;20,20</gesture></inklist></ink>
            <highlight page="0" name="mark" rect="10,10,100,30" coords="10,30,100,30,10,10,100,10"/>
            """)
        #expect(drawn.isEmpty)
    }

    @Test(arguments: [("Approved", "APPROVED"), ("NotForPublicRelease", "NOT FOR PUBLIC RELEASE"), ("#SBDraft", "DRAFT"),
                      ("SHSignHere", "SIGN HERE"), ("AsIs", "AS IS"), ("custom_stamp-2", "CUSTOM STAMP-2"), ("#", "STAMP"),
                      ("SBx", "SBX")])
    func stampNamesReadAsTheirWords(name: String, words: String) {
        #expect(AnnotationSketch.words(ofStamp: name) == words)
    }
}
