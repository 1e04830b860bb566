import Editor
import RedlineCore
import RedlineKit
import TerminalFrontEnd
import TerminalGrid
import Testing

/// config.toml's `[interactions.NAME]` tables: the seed's four examples as declarative conditions, callbacks,
/// composites in the file's order, and every mistake refused with its line.
@Suite struct InteractionConfigurationTests {
    static let seedExamples = """
        author = "Alice"

        [interactions.selectAnnotation]
        [[interactions.selectAnnotation.when]]
        kinds_not = ["ink"]

        [[interactions.transformAnnotation.when]]
        point_outside = [0, 0, 400, 200]

        [[interactions.editAnnotation.when]]
        kinds_not = ["text"]

        [interactions.openLinkAnnotation]
        callback = ["logger", "-t", "redline"]
        [[interactions.openLinkAnnotation.when]]
        pages = [1]

        [interactions.smartZoom]
        callback = "/usr/local/bin/zoomed"
        """

    func apply(_ text: String) throws -> (Interactions, [InteractionComponentName: [String]]) {
        let interactions = Interactions()
        let configuration = try RedlineConfiguration.parse(text, path: "/home/a/.config/redline/config.toml")
        let callbacks = try InteractionConfiguration.apply(configuration.interactionSettings, to: interactions,
                                                           configPath: "/home/a/.config/redline/config.toml")
        return (interactions, callbacks)
    }

    /// A letter page with a text markup at (200, 300) and an ink stroke at (100, 700), reduced as the editor does.
    func state() -> (EditorState, EditorEnvironment) {
        let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
        var state = EditorState(documentPath: "/d.pdf", document: DocumentDescription(pages: [page, page]), columns: 100, rows: 40,
                                reviewer: Reviewer(author: "Alice"))
        let text = MarkupItem(id: MarkupID(StableUUID.derived(seed: 1, item: "t")), pageIndex: 0,
                              content: .text(TextMarkup(origin: Point(x: 200, y: 300), text: "Note", fontSize: 12, color: .red)))
        let ink = MarkupItem(id: MarkupID(StableUUID.derived(seed: 1, item: "i")), pageIndex: 0,
                             content: .ink(InkMarkup(strokes: [[Point(x: 100, y: 700), Point(x: 150, y: 720)]], width: 2, color: .blue)))
        let env = EditorEnvironment(measurer: RedlineServices().measurer)
        let operation = DocumentOperation(id: StableUUID.derived(seed: 1, item: "op"), author: "Alice", time: PDFDate(year: 2026, month: 11, day: 23),
                                          changes: [.insertMarkup(item: text, index: 0), .insertMarkup(item: ink, index: 1)])
        _ = EditorReducer.reduce(&state, .operationReceived(operation),
                                 at: EventStamp(time: PDFDate(year: 2026, month: 11, day: 23), seed: StableUUID.derived(seed: 1, item: "s")),
                                 environment: env)
        return (state, env)
    }

    func can(_ component: InteractionComponent, at point: Point, _ state: EditorState, _ env: EditorEnvironment) -> Bool {
        component.canActivate(at: point, in: .display, on: InteractionAttempt(key: .click, location: InteractionLocation(point, in: .display),
                                                                               state: state, environment: env))
    }

    @Test func theSeedsFourExamplesAsConditions() throws {
        let (interactions, callbacks) = try apply(Self.seedExamples)
        var (state, _) = state()
        let env = EditorEnvironment(measurer: RedlineServices().measurer, interactions: interactions)
        #expect(interactions.allInteractions.isEnabled)
        #expect(can(interactions.selectAnnotation, at: Point(x: 205, y: 305), state, env), "text is selectable")
        #expect(!can(interactions.selectAnnotation, at: Point(x: 110, y: 705), state, env), "ink is not")
        #expect(!can(interactions.transformAnnotation, at: Point(x: 110, y: 705), state, env), "display y 705 is PDF y 87: inside")
        #expect(can(interactions.transformAnnotation, at: Point(x: 205, y: 305), state, env))
        #expect(!can(interactions.editAnnotation, at: Point(x: 205, y: 305), state, env))
        state.navigation.links[0] = [PageLink(rect: Rect(x: 300, y: 400, width: 50, height: 10), target: .uri("https://a.example"))]
        state.navigation.links[1] = state.navigation.links[0]
        #expect(can(interactions.openLinkAnnotation, at: Point(x: 310, y: 405), state, env))
        state.pageIndex = 1
        #expect(!can(interactions.openLinkAnnotation, at: Point(x: 310, y: 405), state, env), "links on page 1 only")
        #expect(callbacks == [.openLinkAnnotation: ["logger", "-t", "redline"], .smartZoom: ["/usr/local/bin/zoomed"]])
    }

    @Test func compositesAndMembersApplyInTheFilesOrder() throws {
        let (interactions, _) = try apply("""
            [interactions.allInteractions]
            enabled = false
            [interactions.smartZoom]
            enabled = true
            """)
        #expect(interactions.smartZoom.isEnabled)
        #expect(!interactions.selectAnnotation.isEnabled && !interactions.fastScroll.isEnabled && !interactions.deselectText.isEnabled)
        let (reversed, _) = try apply("""
            [interactions.smartZoom]
            enabled = true
            [interactions.allInteractions]
            enabled = false
            """)
        #expect(!reversed.smartZoom.isEnabled)
    }

    @Test func authorsAndLinkTargets() throws {
        let (interactions, _) = try apply("""
            [[interactions.editAnnotation.when]]
            author = "self"
            [[interactions.openLinkAnnotation.when]]
            link_targets = ["destination", "named"]
            """)
        var (state, _) = state()
        let env = EditorEnvironment(measurer: RedlineServices().measurer, interactions: interactions)
        #expect(can(interactions.editAnnotation, at: Point(x: 205, y: 305), state, env), "the editor's markup is the reviewer's own")
        state.navigation.links[0] = [PageLink(rect: Rect(x: 300, y: 400, width: 50, height: 10), target: .uri("https://a.example")),
                                     PageLink(rect: Rect(x: 300, y: 500, width: 50, height: 10), target: .destination(Destination(pageIndex: 1)))]
        #expect(!can(interactions.openLinkAnnotation, at: Point(x: 310, y: 405), state, env))
        #expect(can(interactions.openLinkAnnotation, at: Point(x: 310, y: 505), state, env))
    }

    /// Either/or: one condition whose `any` lists alternatives, each a table whose fields must all hold.
    @Test func alternativesAreWrittenAsAnyOfTables() throws {
        let (interactions, _) = try apply("""
            [[interactions.transformAnnotation.when]]
            any = [{ kinds = ["text"] }, { kinds = ["ink"], pages = [2] }]
            """)
        var (state, _) = state()
        let env = EditorEnvironment(measurer: RedlineServices().measurer, interactions: interactions)
        #expect(can(interactions.transformAnnotation, at: Point(x: 205, y: 305), state, env), "text, the first alternative")
        #expect(!can(interactions.transformAnnotation, at: Point(x: 110, y: 705), state, env), "ink on page 1: neither")
        state.pageIndex = 1
        let ink = try #require(state.markup.items(onPage: 0).last)
        _ = EditorReducer.reduce(&state, .operationReceived(DocumentOperation(
            id: StableUUID.derived(seed: 2, item: "op"), author: "Alice", time: PDFDate(year: 2026, month: 11, day: 23),
            changes: [.insertMarkup(item: MarkupItem(id: MarkupID(StableUUID.derived(seed: 2, item: "i")), pageIndex: 1, content: ink.content), index: 2)])),
            at: EventStamp(time: PDFDate(year: 2026, month: 11, day: 23), seed: StableUUID.derived(seed: 2, item: "s")), environment: env)
        #expect(can(interactions.transformAnnotation, at: Point(x: 110, y: 705), state, env), "ink on page 2: the second")
    }

    @Test(arguments: [
        ("[[interactions.selectAnnotation.when]]\nany = [{ kinds = [\"ink\"] }, {}]", "line 2: any must be a list of tables of conditions"),
        ("[[interactions.selectAnnotation.when]]\nany = [\"ink\"]", "line 2: any must be a list of tables of conditions"),
        ("[[interactions.selectAnnotation.when]]\nany = [{ any = [{ pages = [1] }] }]", "line 2: any cannot hold another any"),
        ("[[interactions.smartZoom.when]]\nany = [{ kinds = [\"ink\"] }]", "line 2: kinds does not apply to smartZoom"),
        ("[[interactions.selectAnnotation.when]]\nany = [{ kind = [\"ink\"] }]", "line 2: unknown condition field \"kind\""),
        ("[interactions.selectAnotation]\nenabled = false", "line 1: [interactions.selectAnotation] is no interaction component"),
        ("\n[interactions.smartZoom]\nenabled = \"no\"", "line 3: enabled in [interactions.smartZoom] must be true or false"),
        ("[interactions.smartZoom]\n\nenable = false", "line 3: unknown setting \"enable\" in [interactions.smartZoom]"),
        ("[[interactions.selectAnnotation.when]]\nkinds_not = [\"ink\"]\n[[interactions.selectAnnotation.when]]\nkind = [\"ink\"]",
         "line 4: unknown condition field \"kind\""),
        ("[[interactions.smartZoom.when]]\nkinds = [\"ink\"]", "line 2: kinds does not apply to smartZoom"),
        ("[[interactions.selectAnnotation.when]]\nkinds_not = [\"Ink\"]", "line 2: kinds_not: \"Ink\" is no kind"),
        ("[[interactions.selectAnnotation.when]]\npages = [0]", "line 2: pages must be a list of page numbers from 1"),
        ("[[interactions.transformAnnotation.when]]\npoint_outside = [0, 0, 400]", "line 2: point_outside must be a rectangle"),
        ("[[interactions.editAnnotation.when]]\nauthor = \"me\"", "line 2: author must be \"self\" or \"others\""),
        ("[interactions.smartZoom]\ncallback = []", "line 2: callback in [interactions.smartZoom] must be a program"),
        ("[[interactions.openLinkAnnotation.when]]\nlink_targets = [\"web\"]", "line 2: link_targets must be a list of link targets"),
        ("[interactions]\nsmartZoom = 3", "interactions.smartZoom must be a table"),
        ("\n[interactions.\"sel ect\"]\nenabled = false", "line 2: [interactions.sel ect] is no interaction component"),
    ])
    func mistakesAreRefusedWithTheirLine(text: String, expected: String) {
        do {
            _ = try apply(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }

    @Test func escapeSequencesInNamesAreShownInert() {
        do {
            _ = try apply("[interactions.\"\u{1B}]2;pwned\u{07}\"]\nenabled = false")
            Issue.record("accepted")
        } catch {
            #expect(!"\(error)".unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(error)")
        }
    }
}
