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
    }
}
