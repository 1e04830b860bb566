import RedlineCore
import RedlineKit
import Testing

/// Which characters the markup font (DejaVu Sans, through cairo) can draw, as the editor and `apply` ask it.
@Suite struct FontCoverageTests {
    let measurer = RedlineServices().measurer

    @Test func latinGreekAndCyrillicDrawAndOtherScriptsAreNamed() {
        #expect(measurer.missingCharacters(in: "Ça va? Ελλάδα Привет ½ € “quoted” — ok") == [])
        #expect(measurer.missingCharacters(in: "日本語 ok 日") == ["日", "本", "語"], "each once, in order")
        #expect(measurer.missingCharacters(in: "नमस्ते").isEmpty == false)
        #expect(measurer.missingCharacters(in: "👍🏽 fine") == ["👍🏽"])
        #expect(measurer.missingCharacters(in: " \t") == [], "white space draws nothing either way")
        #expect(measurer.undrawable("OK") == nil)
        // Arabic's glyphs are there, but set left to right and unjoined it would print backwards: refused too.
        #expect(measurer.undrawable("عربي ok") == "right-to-left letters ع (U+0639), ر (U+0631), ب (U+0628), ي (U+064A) would print backwards and unjoined (text is set left to right)")
        #expect(measurer.undrawable("שלום")?.contains("right-to-left letters ש (U+05E9)") == true)
    }

    /// A direction control draws nothing here but turns the words around in a reader's popup ("PAY \u{202E}0001"
    /// reads "PAY 1000" there): refused, named by its code only, each once.
    @Test func directionControlsAreRefusedByTheirCodes() {
        #expect(measurer.undrawable("PAY \u{202E}0001\u{202C} \u{202E}") == "direction controls U+202E, U+202C would make readers reorder the words (text is set left to right)")
        for code in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = "a" + String(Character(Unicode.Scalar(code)!)) + "b"
            #expect(measurer.undrawable(text)?.hasPrefix("direction controls U+") == true, "U+\(String(code, radix: 16))")
        }
        #expect(measurer.undrawable("a\u{200D}b \u{00AD}") == nil, "a joiner or a soft hyphen changes no order")
    }
}
