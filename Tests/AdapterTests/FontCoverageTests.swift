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
}
