import Foundation
import PDFRendering
import RedlineCore
import RedlineKit
import Testing
import TestSupport

/// Annotations other tools wrote, moved as the editor moves them and saved with `:w`: MuPDF finds each where it was
/// asked to go, every coordinate along (ink, quads, a line's ends, a polygon's corners, the popup, the replies),
/// its appearance stream byte for byte the one it had, and nothing else changed. The editor's picture of the
/// moved page is the saved file's page.
@Suite struct MovingFileAnnotationsTests {
    static let date = PDFDate(year: 2026, month: 11, day: 24, hour: 9, minute: 30, second: 0)

    /// Moves every markup annotation that starts a thread, each by its own distance.
    static func moveAll(_ description: DocumentDescription) -> (AnnotationEdits, [AnnotationID: (dx: Double, dy: Double)]) {
        var edits = AnnotationEdits()
        var offsets: [AnnotationID: (dx: Double, dy: Double)] = [:]
        for (index, annotation) in description.annotations.enumerated()
        where annotation.subtype.isMarkup && !annotation.isReply && !annotation.isReadOnly && !annotation.isLocked
            && annotation.rect.width > 0 && annotation.rect.height > 0 {
            let offset = (dx: 7.0 + Double(index), dy: 5.0 - Double(index % 3) * 4)
            edits.move(annotation.id, dx: offset.dx, dy: offset.dy, at: date)
            offsets[annotation.id] = offset
        }
        return (edits, offsets)
    }

    static func close(_ a: [Double], _ b: [Double], shiftedBy offset: (dx: Double, dy: Double)) -> Bool {
        a.count == b.count && zip(a, b).enumerated().allSatisfy { index, pair in
            abs(pair.0 + (index % 2 == 0 ? offset.dx : offset.dy) - pair.1) < 0.01
        }
    }

    @Test(arguments: ["pdfjs_issue14438.pdf", "pdfcpu_text_annotations.pdf"])
    func everyMovedAnnotationLandsWhereAskedWithItsLookKept(fixture: String) throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: fixture)
        let output = folder.file("moved.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        let (edits, offsets) = Self.moveAll(document.description)
        #expect(!offsets.isEmpty)
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        #expect(try QPDFCheck.errors(in: output) == nil)

        // Which move each annotation of the file takes part in: its own or its thread's.
        let parents = Dictionary(document.description.annotations.compactMap { a in a.inReplyTo.map { (a.id, $0) } },
                                 uniquingKeysWith: { first, _ in first })
        let before = try MuPDFProbe.annotations(in: source)[0].annotations
        let after = try MuPDFProbe.annotations(in: output)[0].annotations
        try #require(before.count == after.count, "MuPDF reads as many annotations")
        let ours = document.description.annotations.filter { $0.pageIndex == 0 }
        var moved = 0
        for (old, new) in zip(before, after) {
            // Matched to Redline's reading by subtype and place: both read /Annots in order.
            guard let annotation = ours.first(where: { $0.subtype.rawValue == old.type && abs($0.rect.minX - old.rect[0]) < 0.01
                                                        && abs($0.rect.minY - old.rect[1]) < 0.01 }),
                  let move = edits.move(of: annotation.id, parents: parents) else {
                #expect(old.rect == new.rect && old.points == new.points && old.modDate == new.modDate, "\(old.type) stays")
                continue
            }
            moved += 1
            let offset = (dx: move.dx, dy: move.dy)
            #expect(Self.close(old.rect, new.rect, shiftedBy: offset), "\(old.type): \(old.rect) → \(new.rect), asked \(offset)")
            #expect(zip(old.points, new.points).allSatisfy { Self.close($0, $1, shiftedBy: offset) } && old.points.count == new.points.count,
                    "\(old.type)'s points move along")
            if let oldPopup = old.popupRect, let newPopup = new.popupRect {
                #expect(Self.close(oldPopup, newPopup, shiftedBy: offset), "\(old.type)'s popup moves along")
            }
            #expect(old.appearanceDigest == new.appearanceDigest, "\(old.type) keeps its appearance, byte for byte")
            #expect(offsets[annotation.id] == nil || new.modDate != old.modDate, "\(old.type)'s /M says when it moved")
            #expect(old.content == new.content && old.title == new.title && old.stroke == new.stroke)
        }
        #expect(moved >= offsets.count, "moved \(moved) of \(offsets.count) and their replies")
    }

    /// An annotation without /NM is known by an id made from what it says; after being moved, or having its text
    /// changed, and saved, it is still known by that id (a reply from the command line names it so).
    @Test(arguments: ["pdfjs_issue14438.pdf", "pdfcpu_text_annotations.pdf"])
    func annotationsWithoutANameKeepTheirIdsWhenMovedOrReworded(fixture: String) throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: fixture)
        let output = folder.file("moved.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        var (edits, _) = Self.moveAll(document.description)
        let unnamed = document.description.annotations.filter { $0.id.rawValue.hasPrefix("redline-") }.map(\.id)
        try #require(!unnamed.isEmpty, "the fixture has annotations without /NM")
        let reworded = try #require(document.description.annotations.first { $0.id.rawValue.hasPrefix("redline-") })
        edits.changeContents(of: reworded.id, to: "Reworded", at: Self.date)
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        let after = try OpenedDocument(path: output, password: nil).description.annotations
        let ids = Set(after.map(\.id))
        #expect(unnamed.allSatisfy(ids.contains), "lost: \(unnamed.filter { !ids.contains($0) })")
        #expect(after.first { $0.id == reworded.id }?.contents == "Reworded")
        #expect(after.count == document.description.annotations.count)
    }

    /// A reply written in this session goes where its thread goes, whether written before the move or after it
    /// (then it is already over the moved parent, and must not move twice): on the editor's list and in the file.
    @Test func repliesWrittenThisSessionGoWhereTheirThreadGoes() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pdfcpu_text_annotations.pdf")
        let output = folder.file("moved.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let highlight = try #require(original.first { $0.subtype == .highlight && !$0.isReply })
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        func stamp(_ name: String) -> ThreadEditing.Stamp { .init(date: Self.date, id: AnnotationID(name)) }
        try editing.reply(to: highlight.id, text: "before the move", current: edits.applied(to: original), edits: &edits, stamp: stamp("early"))
        try editing.move(highlight.id, dx: 30, dy: 40, at: Self.date, current: edits.applied(to: original), edits: &edits)
        try editing.reply(to: AnnotationID("early"), text: "after the move", current: edits.applied(to: original), edits: &edits, stamp: stamp("late"))
        let there = highlight.rect.offsetBy(dx: 30, dy: 40)
        let shown = edits.applied(to: original)
        #expect(shown.first { $0.id == AnnotationID("early") }?.rect == there, "the list puts the earlier reply over the moved highlight")
        #expect(shown.first { $0.id == AnnotationID("late") }?.rect == there, "and the later one, not moved twice")

        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        let saved = try MuPDFProbe.annotations(in: output)[0].annotations
        let movedHighlight = try #require(saved.first { $0.type == "Highlight" })
        for text in ["before the move", "after the move"] {
            let reply = try #require(saved.first { $0.content == text })
            // MuPDF gives a note its icon's size, at the top left of its /Rect.
            #expect(zip(reply.rect.prefix(2), movedHighlight.rect.prefix(2)).allSatisfy { abs($0 - $1) < 0.01 },
                    "'\(text)' sits on the moved highlight: \(reply.rect) against \(movedHighlight.rect)")
        }
    }

    /// An annotation added in the session (a copy kept in a conflict), then moved and recoloured, is saved where and
    /// as the editor shows it, its reply on it; the file's own annotations are not touched.
    @Test func anAddedAnnotationMovedAndRecolouredIsSavedAsShown() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pdfcpu_text_annotations.pdf")
        let output = folder.file("kept.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let kept = Annotation(id: "kept-copy", pageIndex: 0, subtype: AnnotationSubtype("Square"), rect: Rect(x: 100, y: 120, width: 80, height: 30),
                              author: "Ana", created: Self.date, modified: Self.date, contents: "Mine", flags: Annotation.printFlag,
                              drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2))
        var edits = AnnotationEdits()
        edits.add(kept)
        let editing = ThreadEditing(author: "Ana", path: source)
        try editing.reply(to: kept.id, text: "on the copy", current: edits.applied(to: original), edits: &edits,
                          stamp: .init(date: Self.date, id: AnnotationID("copy-reply")))
        try editing.move(kept.id, dx: 30, dy: 40, at: Self.date, current: edits.applied(to: original), edits: &edits)
        try editing.restyle(kept.id, color: RGBColor(red: 0, green: 0, blue: 255), fontSize: nil, original: kept, at: Self.date,
                            current: edits.applied(to: original), edits: &edits)
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        let before = try MuPDFProbe.annotations(in: source)[0].annotations
        let saved = try MuPDFProbe.annotations(in: output)[0].annotations
        let square = try #require(saved.first { $0.content == "Mine" })
        #expect(zip(square.rect, [130.0, 160, 210, 190]).allSatisfy { abs($0 - $1) < 1.5 }, "\(square.rect)")
        #expect(square.stroke == [0, 0, 1])
        let reply = try #require(saved.first { $0.content == "on the copy" })
        #expect(zip(reply.rect.prefix(2), square.rect.prefix(2)).allSatisfy { abs($0 - $1) < 0.01 }, "\(reply.rect)")
        let others = saved.filter { !["Mine", "on the copy"].contains($0.content ?? "") }
        #expect(others.map(\.rect) == before.map(\.rect) && others.map(\.stroke) == before.map(\.stroke))
    }

    /// What the editor draws for a page whose annotations moved is what the saved file draws; and the page
    /// changed only where the annotations were and went.
    @Test func theEditorsPictureOfMovedAnnotationsIsTheSavedPage() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pdfjs_issue14438.pdf")
        let output = folder.file("moved.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        let square = try #require(document.description.annotations.first { $0.subtype == AnnotationSubtype("Square") })
        let ink = try #require(document.description.annotations.first { $0.subtype == .ink && $0.rect.maxX < 20_000 })
        var edits = AnnotationEdits()
        edits.move(square.id, dx: -40, dy: 60, at: Self.date)
        edits.move(ink.id, dx: 30, dy: 30, at: Self.date)
        let shown = document.renderer.render(page: 0, scale: 1, annotationEdits: edits)
        let plain = document.renderer.render(page: 0, scale: 1)
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        let saved = try OpenedDocument(path: output, password: nil).renderer.render(page: 0, scale: 1)
        #expect(shown.width == saved.width && shown.height == saved.height)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")

        let areas = [square, ink].flatMap { [$0.rect, $0.rect.offsetBy(dx: edits.moved[$0.id]!.dx, dy: edits.moved[$0.id]!.dy)] }
            .map { $0.insetBy(dx: -3, dy: -3) }
        var changedInside = 0, changedOutside = 0
        for y in 0..<plain.height {
            for x in 0..<plain.width {
                let offset = y * plain.stride + x * 4
                guard plain.pixels[offset..<offset + 3] != shown.pixels[offset..<offset + 3] else { continue }
                let point = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                if areas.contains(where: { $0.contains(point) }) { changedInside += 1 } else { changedOutside += 1 }
            }
        }
        #expect(changedInside > 200, "the annotations left their place and drew at the new one")
        #expect(changedOutside == 0, "nothing else on the page changed")
    }
}
