import Editor
import RedlineCore
import Testing

/// Paging through a long document keeps the links and words of the last pages read, not of every page.
@Suite struct KeptPageTextTests {
    @Test func onlyTheRecentPagesWordsAndLinksAreKeptAndAForgottenPageIsReadAgain() {
        var editor = EditorHarness(pages: 100)
        let word = PageWord(text: "word", box: Rect(x: 72, y: 72, width: 20, height: 10), line: 0, block: 0)
        for page in 0..<60 {
            editor.send(.linksRead(pageIndex: page, links: []))
            editor.send(.wordsRead(pageIndex: page, words: [word]))
            editor.press(.pageDown)
        }
        let kept = DocumentNavigation.keptPages
        #expect(editor.state.navigation.words.count == kept && editor.state.navigation.links.count == kept)
        #expect(Set(editor.state.navigation.words.keys) == Set(36..<60))
        #expect(editor.state.navigation.needsWords(onPage: 3), "a page forgotten is read again when shown")
        #expect(!editor.state.navigation.needsWords(onPage: 59))
    }
}
