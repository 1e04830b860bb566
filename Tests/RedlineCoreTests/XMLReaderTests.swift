import Foundation
import RedlineCore
import Testing

/// The XML reader under XFDF (and under the collaboration server's frames): linear on hostile shapes, and reading
/// what other tools write (prefixes, CR LF) as a conforming XML reader with namespaces does, refusing what it refuses.
@Suite struct XMLReaderTests {
    static let pages = XFDFTests.pages

    static func error(_ text: String) -> String {
        do {
            _ = try XMLReader.read(Array(text.utf8))
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// 100,000 attributes on one element used to take 81 s (each checked against all before it): now the element is
    /// refused at its 257th, and 256 distinct ones are read with a duplicate found by a set.
    @Test func attributesAreBoundedAndCheckedOnce() throws {
        let many = (0..<100_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        #expect(Self.error("<xfdf \(many)/>") == "line 1: <xfdf> has more than 256 attributes")
        let most = (0..<256).map { "a\($0)=\"1\"" }.joined(separator: " ")
        #expect(try XMLReader.read(Array("<x \(most)/>".utf8)).attributes.count == 256)
        #expect(Self.error("<x \((0..<255).map { "a\($0)=\"1\"" }.joined(separator: " ")) a3=\"2\"/>") == "line 1: attribute a3 appears twice in <x>")
    }

    /// A 20,000-deep inreplyto chain used never to finish (every annotation walked its whole chain): one walk now.
    @Test func longReplyChainsAndLoopsAreFoundInOneWalk() throws {
        let depth = 20_000
        var body = "<square page=\"0\" rect=\"0,0,1,1\" name=\"r0\"/>"
        for index in 1..<depth { body += "<text page=\"0\" rect=\"0,0,1,1\" name=\"r\(index)\" inreplyto=\"r\(index - 1)\"/>" }
        let chain = "<xfdf><annots>\(body)</annots></xfdf>"
        #expect(try XFDF.command(from: Array(chain.utf8), pages: Self.pages).add.count == depth)
        let loop = chain.replacingOccurrences(of: "name=\"r0\"/>", with: "name=\"r0\" inreplyto=\"r\(depth - 1)\"/>")
        #expect(XFDFTests.error(loop) == "line 1: inreplyto=\"r19999\" of \"r0\" makes a loop of replies")
        // A loop the document had, which this file only points into, is not this file's doing.
        let old = [Annotation(id: "a", pageIndex: 0, subtype: .text, rect: Rect(x: 0, y: 0, width: 1, height: 1), inReplyTo: "b"),
                   Annotation(id: "b", pageIndex: 0, subtype: .text, rect: Rect(x: 0, y: 0, width: 1, height: 1), inReplyTo: "a")]
        let into = "<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\" name=\"c\" inreplyto=\"a\"/></annots></xfdf>"
        #expect(try XFDF.command(from: Array(into.utf8), pages: Self.pages, existing: old).add.map(\.id) == ["c"])
        #expect(ReplyLoops.members(parents: ["x": "x"]) == ["x"], "an annotation answering itself")
    }

    /// XFDF as tools with a prefix write it reads as the plain form does.
    @Test func prefixedXFDFReadsAsThePlainForm() throws {
        let plain = """
            <?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>
            <square page="0" rect="10,20,110,70" name="s" color="#00FF00"><contents>Look</contents></square>
            </annots></xfdf>
            """
        let prefixed = """
            <?xml version="1.0"?><x:xfdf xmlns:x="http://ns.adobe.com/xfdf/"><x:annots>
            <x:square page="0" rect="10,20,110,70" name="s" color="#00FF00"><x:contents>Look</x:contents></x:square>
            </x:annots></x:xfdf>
            """
        let expected = try XFDF.command(from: Array(plain.utf8), pages: Self.pages)
        #expect(try XFDF.command(from: Array(prefixed.utf8), pages: Self.pages) == expected)
        // Another namespace's element under a familiar name is not XFDF's.
        let foreign = prefixed.replacingOccurrences(of: "<x:square", with: "<y:square xmlns:y=\"urn:other\"")
            .replacingOccurrences(of: "</x:square>", with: "</y:square>")
        #expect(XFDFTests.error(foreign) == "line 2: unknown element <y:square>")
    }

    /// XML 1.0 §2.11 and §3.3.3: CR LF and lone CRs are line feeds; in attributes, tabs and line ends are spaces, while a
    /// character reference keeps what it names.
    @Test func lineEndsAndAttributeValuesAreNormalised() throws {
        let text = "<x a=\"one\r\ntwo\tthree&#10;four&#13;\">first\r\nsecond\rthird<![CDATA[\r\nfourth]]></x>"
        let element = try XMLReader.read(Array(text.utf8))
        #expect(element[attribute: "a"] == "one two three\nfour\r")
        #expect(element.text == "first\nsecond\nthird\nfourth")
        let crlf = "<?xml version=\"1.0\"?>\r\n<xfdf xmlns=\"http://ns.adobe.com/xfdf/\">\r\n<annots>\r\n"
            + "<text page=\"0\" rect=\"0,0,1,1\" name=\"n\"><contents>a\r\nb</contents></text>\r\n</annots>\r\n</xfdf>\r\n"
        #expect(try XFDF.command(from: Array(crlf.utf8), pages: Self.pages).add.first?.contents == "a\nb")
        #expect(Self.error("<x>\r\n\r\n<y>") == "line 3: <y> is never closed", "a CR LF counts as one line")
        #expect(Self.error("<x>\r\r<!-- a\rb -->\r<y>") == "line 5: <y> is never closed", "a lone CR ends a line, between elements and in a comment")
        let lone = "<xfdf>\r<annots>\r<square page=\"0\" rect=\"0,0,1,1\"/>\r<square page=\"0\" rect=\"0,0,x,1\"/>\r</annots></xfdf>"
        #expect(XFDFTests.error(lone) == "line 4: rect of <square> holds \"x\", not a number")
    }

    /// What a namespace-aware reader (expat, libxml2, Java) refuses is refused here, so Redline never writes it back.
    @Test(arguments: [
        ("<p 8a=\"x\"/>", "line 1: 8a is not a name XML with namespaces allows (in <p>)"),
        ("<p foo:bar=\"x\"/>", "line 1: the prefix foo of foo:bar in <p> is not declared"),
        ("<foo:p/>", "line 1: the prefix foo of foo:p in <foo:p> is not declared"),
        ("<p xmlns:xml=\"urn:other\"/>", "line 1: the prefix xml cannot be bound to another namespace (in <p>)"),
        ("<p xmlns:xmlns=\"urn:other\"/>", "line 1: the prefix xmlns cannot be declared (in <p>)"),
        ("<p xmlns:a=\"\"/>", "line 1: xmlns:a cannot undeclare a prefix (XML 1.0) (in <p>)"),
        ("<p xmlns:a=\"urn:u\" xmlns:b=\"urn:u\" a:x=\"1\" b:x=\"2\"/>",
         "line 1: attribute b:x of <p> is given twice under two prefixes of one namespace"),
        ("<a:b:c xmlns:a=\"urn:u\"/>", "line 1: a:b:c is not a name XML with namespaces allows"),
        ("<a::c xmlns:a=\"urn:u\"/>", "line 1: a::c is not a name XML with namespaces allows"),
        ("<a: xmlns:a=\"urn:u\"/>", "line 1: a: is not a name XML with namespaces allows"),
        ("<:a/>", "line 1: :a is not a name XML with namespaces allows"),
        ("<p a:1=\"x\" xmlns:a=\"urn:u\"/>", "line 1: a:1 is not a name XML with namespaces allows (in <p>)"),
        ("<xmlns:p/>", "line 1: <xmlns:p> uses the prefix xmlns, which names no element"),
        ("<p><a:q xmlns:a=\"urn:u\"/><a:r/></p>", "line 1: the prefix a of a:r in <a:r> is not declared"),
    ])
    func whatNamespacesForbidIsRefused(text: String, message: String) {
        #expect(Self.error(text) == message)
    }

    /// Declared prefixes, the xml prefix and a default namespace undeclared again are all well-formed.
    @Test func declaredPrefixesResolve() throws {
        let text = "<a xmlns=\"urn:d\" xmlns:p=\"urn:p\" xml:lang=\"en\"><p:b p:c=\"1\" c=\"2\"/><c xmlns=\"\"/></a>"
        let root = try XMLReader.read(Array(text.utf8))
        #expect(root.namespace == "urn:d")
        #expect(root.elements.map(\.namespace) == ["urn:p", nil])
        #expect(root.elements[0].localName == "b")
    }

    /// An annotation without a name gets the same one at every read of the same file, and different ones for two
    /// annotations alike.
    @Test func namelessAnnotationsAreNamedTheSameAtEveryRead() throws {
        let text = "<xfdf><annots><circle page=\"0\" rect=\"0,0,1,1\"/><circle page=\"0\" rect=\"0,0,1,1\"/></annots></xfdf>"
        let first = try XFDF.command(from: Array(text.utf8), pages: Self.pages).add.map(\.id)
        let second = try XFDF.command(from: Array(text.utf8), pages: Self.pages).add.map(\.id)
        #expect(first == second)
        #expect(Set(first).count == 2)
        #expect(first.allSatisfy { UUID(uuidString: $0.rawValue) != nil })
    }
}
