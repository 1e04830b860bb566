import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid
import TestSupport
import Testing

/// `redline annotations --json` is written without `JSONEncoder` for speed; scripts must see the very text the
/// encoder wrote, and every value must read back as it was.
@Suite struct AnnotationJSONTests {
    /// Characters a document can put in any text field: quotes, backslashes, slashes, every C0 control, DEL, C1,
    /// bidirectional overrides, zero-width joiners, format characters beyond the Basic Multilingual Plane (a
    /// language tag, a musical format character), line separators, emoji, CJK, combining marks.
    private static let hostileScalars: [Unicode.Scalar] = Array("aZ09 \"\\/'{}[]:,".unicodeScalars)
        + (UInt32(0x00)...0x1F).compactMap { Unicode.Scalar($0) } + ([0x7F, 0x80, 0x85, 0x9B, 0x9F, 0xA0, 0xAD, 0x200B, 0x200D,
        0x2028, 0x2029, 0x202E, 0x2066, 0xFEFF, 0xFFFD, 0xE0001, 0xE0041, 0x1D173, 0x1F600, 0x4E2D, 0x0301, 0x05D0] as [UInt32])
        .compactMap { Unicode.Scalar($0) }

    private static func text(_ random: inout SplitMix64, maxLength: Int = 12) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.int(0...maxLength) { scalars.append(hostileScalars[random.int(0...hostileScalars.count - 1)]) }
        return String(scalars)
    }

    private static func annotation(_ random: inout SplitMix64, index: Int) -> Annotation {
        func number() -> Double {
            switch random.int(0...4) {
            case 0: Double(random.int(-1000...1000))
            case 1: Double(random.int(-10_000_000...10_000_000)) / 1000
            case 2: Double(random.int(0...1_000_000_000)) * 1e6
            case 3: 1 / Double(random.int(1...1_000_000))
            default: Double(random.int(0...60_000)) / 100
            }
        }
        func date() -> PDFDate? {
            random.chance() ? nil : PDFDate(year: random.int(0...9999), month: random.int(1...12), day: random.int(1...31),
                                            hour: random.int(0...23), minute: random.int(0...59), second: random.int(0...59),
                                            offsetMinutes: random.int(-23 * 60...23 * 60))
        }
        let x = number(), y = number()
        let state = random.int(0...2) == 0 ? AnnotationState(model: "Review", value: ["Accepted", "Rejected", "None"][random.int(0...2)]) : nil
        return Annotation(
            id: AnnotationID(random.chance() ? "id-\(index)" : text(&random) + "\(index)"), pageIndex: random.int(0...100_000),
            subtype: AnnotationSubtype(rawValue: random.chance() ? "Text" : text(&random, maxLength: 6)),
            rect: Rect(x: x, y: y, width: abs(number()), height: abs(number())),
            author: random.chance() ? nil : text(&random), created: date(), modified: date(),
            contents: random.chance() ? nil : text(&random, maxLength: 40),
            inReplyTo: random.chance() ? nil : AnnotationID(text(&random)),
            replyType: random.int(0...2) == 0 ? .group : (random.chance() ? .reply : nil), state: state)
    }

    private static func encoderText(_ annotations: [Annotation]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return VisibleText.json(String(decoding: try encoder.encode(annotations), as: UTF8.self))
    }

    @Test func theListingIsTheTextJSONEncoderWroteForHostileValues() throws {
        var random = SplitMix64(seed: 32)
        for round in 0..<40 {
            let annotations = (0..<random.int(1...60)).map { Self.annotation(&random, index: $0) }
            let written = AnnotationReport.json(annotations)
            let expected = try Self.encoderText(annotations)
            #expect(written == expected, "round \(round)")
            if written != expected {
                let mismatch = zip(written, expected).prefix(while: { $0 == $1 }).count
                Issue.record("first difference near: \(String(written.dropFirst(max(0, mismatch - 40)).prefix(80)).debugDescription) against \(String(expected.dropFirst(max(0, mismatch - 40)).prefix(80)).debugDescription)")
                return
            }
        }
        #expect(AnnotationReport.json([]) == "[]")
    }

    /// Every value read back exactly (the dates to the second, the rectangle to a hundredth), so what the
    /// listing says is what the file holds, and no escape of a hidden character changes a string.
    @Test func everyValueReadsBack() throws {
        var random = SplitMix64(seed: 33)
        let annotations = (0..<2_000).map { Self.annotation(&random, index: $0) }
        let json = AnnotationReport.json(annotations)
        #expect(!json.unicodeScalars.contains(where: { $0.value >= 0x7F && VisibleText.isHidden($0) }),
                "no raw control or format character reaches a terminal")
        let read = try JSONDecoder().decode([Annotation].self, from: Data(json.utf8))
        #expect(read.count == annotations.count)
        for (back, original) in zip(read, annotations) {
            #expect(back.id == original.id && back.author == original.author && back.contents == original.contents)
            #expect(back.inReplyTo == original.inReplyTo && back.replyType == original.replyType)
            #expect(back.created == original.created && back.modified == original.modified)
            #expect(back.pageIndex == original.pageIndex && back.subtype == original.subtype)
            // Read back as a corner and a size, the far corner is a sum: exact to a hundredth wherever a double
            // holds hundredths (below 10^13 points, a thousand times any page's size).
            for (read, written) in zip(back.exportedRect, original.exportedRect) {
                #expect(abs(read - written) <= max(0.005, abs(written) * 1e-15), "\(original.exportedRect)")
            }
        }
    }

    /// A language tag (U+E0001) is a format character beyond the Basic Multilingual Plane: its JSON escape is a
    /// surrogate pair. Written as five hex digits it read back as U+E000 and a "1".
    @Test func aHiddenCharacterBeyondTheBasicPlaneReadsBackAsItself() throws {
        let name = "flag\u{E0001}\u{E0067}end"
        let json = VisibleText.json(#"["\#(name)"]"#)
        #expect(json.contains(#"\uDB40\uDC01"#))
        let read = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(read == [name])
    }
}
