import Foundation
import RedlineKit
import RedlineCore
import Testing

@Suite struct ConfigurationTests {
    @Test func readsAuthorAndReplies() throws {
        let configuration = try RedlineConfiguration.parse("author = \"Alice Ä\"\nreplies = false\n", path: "c.toml")
        #expect(configuration == RedlineConfiguration(author: "Alice Ä", replies: false))
        #expect(try RedlineConfiguration.parse("", path: "c.toml") == RedlineConfiguration())
        let bookmarks = try RedlineConfiguration.parse("bookmark_providers = [\"sidecar\"]\nbookmark_order = \"page\"", path: "c.toml")
        #expect(bookmarks.bookmarkProviders == ["sidecar"] && bookmarks.bookmarkOrder == .page)
    }

    @Test func bothPalettesComeFromTheFileOrTheDefaults() throws {
        let standard = try RedlineConfiguration.parse("", path: "c.toml").palettes
        #expect(standard.text == [.blue, .black, .red, .purple])
        #expect(standard.highlighter == [.yellow, .green, .blue, .pink])
        let chosen = try RedlineConfiguration.parse("text_colors = [\"black\", \"#0A7F3F\"]\nhighlighter_colors = [\"#FF8800\", \"yellow\"]\n",
                                                    path: "c.toml").palettes
        #expect(chosen.text == [.black, .custom(RGBColor(red: 0x0A, green: 0x7F, blue: 0x3F))])
        #expect(chosen.highlighter == [.custom(RGBColor(red: 0xFF, green: 0x88, blue: 0)), .yellow])
    }

    @Test(arguments: [
        ("author = 3", "c.toml: author must be a string, like author = \"Alice\""),
        ("replies = \"no\"", "c.toml: replies must be true or false"),
        ("recolor = \"yes\"", "c.toml: recolor must be true or false"),
        ("recolor_light = 12", "c.toml: recolor_light: 12 is not a colour #RRGGBB, like recolor_light = \"#E8E6E3\""),
        ("recolor_dark = \"#12345\"", "c.toml: recolor_dark: \"#12345\" is not a colour #RRGGBB, like recolor_dark = \"#1C1C1E\""),
        ("open_command = 3", "c.toml: open_command must be a program, like open_command = \"xdg-open\", or a list like [\"firefox\", \"--new-tab\"]"),
        ("open_command = [\"xdg-open\", 2]", "c.toml: open_command must be a program, like open_command = \"xdg-open\", or a list like [\"firefox\", \"--new-tab\"]"),
        ("autor = \"Alice\"", "c.toml: unknown setting \"autor\" (known: author, replies, bookmark_providers, bookmarks_in_outline, bookmark_order, text_colors, highlighter_colors, open_command, graphics, recolor, recolor_dark, recolor_light, save_mode, save_strategy, keys, interactions, collab)"),
        ("highlighter_colors = []", "c.toml: highlighter_colors must be a list of 1 to 16 colours, like [\"yellow\", \"#FF8800\"]"),
        ("text_colors = [\"teal\"]", "c.toml: text_colors: \"teal\" is not blue, black, red, purple, yellow, green, pink or #RRGGBB"),
        ("text_colors = [\"red\", \"red\"]", "c.toml: text_colors names a colour twice"),
        ("bookmark_providers = []", "c.toml: bookmark_providers must be a list like [\"xmp\", \"sidecar\"]"),
        ("bookmark_providers = [\"xmp\", \"xmp\"]", "c.toml: bookmark_providers names a provider twice"),
        ("bookmark_order = \"date\"", "c.toml: bookmark_order must be \"custom\" or \"page\""),
        ("graphics = \"vt100\"", "c.toml: graphics must be one of auto, kitty, sixel, iterm2, symbols, like graphics = \"auto\""),
    ])
    func badSettingsAreNamed(text: String, message: String) {
        #expect(throws: ConfigurationError(path: "c.toml", message: String(message.dropFirst("c.toml: ".count)))) {
            try RedlineConfiguration.parse(text, path: "c.toml")
        }
    }

    @Test func darkPagesAndTheirColoursAreReadAndOffByDefault() throws {
        #expect(try RedlineConfiguration.parse("", path: "c.toml").recolors == false)
        #expect(try RedlineConfiguration.parse("", path: "c.toml").recolor == .standard)
        let chosen = try RedlineConfiguration.parse("recolor = true\nrecolor_dark = \"#002B36\"\nrecolor_light = \"#fdf6e3\"\n", path: "c.toml")
        #expect(chosen.recolors && chosen.recolor == PageRecolor(dark: 0x002B36, light: 0xFDF6E3))
    }

    @Test func theCollaborationServerAndTokenAreRead() throws {
        let read = try RedlineConfiguration.parse("[collab]\nserver = \"wss://review.example.org\"\ntoken = \"rl_x\"", path: "c.toml")
        #expect(read.collabServer == "wss://review.example.org" && read.collabToken == "rl_x")
        #expect(throws: ConfigurationError(path: "c.toml", message: "unknown setting collab.tokn (known: server, token, author_only)")) {
            try RedlineConfiguration.parse("[collab]\ntokn = \"x\"", path: "c.toml")
        }
        #expect(throws: ConfigurationError(path: "c.toml", message: "collab.token must be a string without control characters")) {
            try RedlineConfiguration.parse("[collab]\ntoken = \"a\\u001Bb\"", path: "c.toml")
        }
        #expect(read.collabAuthorOnly)
        #expect(try !RedlineConfiguration.parse("[collab]\nauthor_only = false", path: "c.toml").collabAuthorOnly)
        #expect(throws: ConfigurationError(path: "c.toml", message: "collab.author_only must be true or false")) {
            try RedlineConfiguration.parse("[collab]\nauthor_only = \"no\"", path: "c.toml")
        }
    }

    @Test func theGraphicsModeIsReadAndAutoByDefault() throws {
        #expect(try RedlineConfiguration.parse("", path: "c.toml").graphics == .auto)
        #expect(try RedlineConfiguration.parse("graphics = \"sixel\"", path: "c.toml").graphics == .sixel)
    }

    @Test func theSaveModeIsReadAndFlattenByDefault() throws {
        #expect(try RedlineConfiguration.parse("", path: "c.toml").saveMode == .flatten)
        #expect(try RedlineConfiguration.parse("save_mode = \"annotations\"", path: "c.toml").saveMode == .annotations)
        #expect(try RedlineConfiguration.parse("", path: "c.toml").saveStrategy == .append)
        #expect(try RedlineConfiguration.parse("save_strategy = \"rewrite\"", path: "c.toml").saveStrategy == .rewrite)
        #expect(throws: ConfigurationError(path: "c.toml", message: "save_strategy must be \"append\" or \"rewrite\", like save_strategy = \"append\"")) {
            try RedlineConfiguration.parse("save_strategy = \"incremental\"", path: "c.toml")
        }
        #expect(throws: ConfigurationError(path: "c.toml", message: "save_mode must be \"flatten\" or \"annotations\", like save_mode = \"flatten\"")) {
            try RedlineConfiguration.parse("save_mode = \"annotation\"", path: "c.toml")
        }
    }

    @Test func controlCharactersAreRefusedWithTheirLineNotSilentlyEndingTheFile() {
        // Before, a NUL ended the file for the parser: `replies = false` after it was silently dropped.
        #expect(throws: ConfigurationError(path: "c.toml", message: "line 2: the control character U+0000 is not allowed in TOML")) {
            try RedlineConfiguration.parse("author = \"Alice\"\n\u{0}\nreplies = false\n", path: "c.toml")
        }
        #expect(throws: ConfigurationError(path: "c.toml", message: "line 1: the control character U+001B is not allowed in TOML")) {
            try RedlineConfiguration.parse("author = \"\u{1B}[2J\"", path: "c.toml")
        }
    }

    @Test func aTenMegabyteKeyGivesOneShortLine() {
        let key = String(repeating: "k", count: 10_000_000)
        #expect {
            try RedlineConfiguration.parse(key + " = 1\n", path: "c.toml")
        } throws: { error in
            let text = "\(error)"
            return text.count < 400 && !text.contains("\n") && text.hasPrefix("c.toml: unknown setting \"kkk")
        }
    }

    @Test func brokenTOMLGivesItsLine() {
        #expect {
            try RedlineConfiguration.parse("replies = true\nauthor = [", path: "c.toml")
        } throws: { error in
            (error as? ConfigurationError)?.message.hasPrefix("line 2") == true
        }
    }

    @Test func theAuthorComesFromTheFlagThenTheFileThenTheLogin() {
        let configured = RedlineConfiguration(author: "Carol")
        #expect(configured.resolvedAuthor(override: "Fred", environment: ["USER": "login"]) == "Fred")
        #expect(configured.resolvedAuthor(override: nil, environment: ["USER": "login"]) == "Carol")
        #expect(RedlineConfiguration().resolvedAuthor(override: "  ", environment: ["USER": "login"]) == "login")
    }

    @Test func theFileLivesUnderXDGConfigHome() throws {
        #expect(RedlineConfiguration.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/redline/config.toml")
        #expect(RedlineConfiguration.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/redline/config.toml")
        let missing = try RedlineConfiguration.load(path: "/nonexistent/config.toml")
        #expect(missing == RedlineConfiguration())
    }

    /// TOMLKit's parser recursed once per dotted part: 170,000 of them overflowed its stack.
    @Test func keysAndTablesNestedTooDeeplyAreRefusedBeforeParsing() {
        for text in [Array(repeating: "a", count: 170_000).joined(separator: ".") + " = 1",
                     "[" + Array(repeating: "a", count: 170_000).joined(separator: ".") + "]",
                     "x = " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500)] {
            #expect(throws: ConfigurationError(path: "c.toml", message: "line 1: keys, tables or arrays nest more than 64 levels deep")) {
                try RedlineConfiguration.parse(text, path: "c.toml")
            }
        }
        // Dots and brackets inside strings are text.
        let author = "author = \"" + Array(repeating: "a", count: 300).joined(separator: ".") + " [[[[ ]]]\"\nreplies = false\n"
        #expect(throws: Never.self) { try RedlineConfiguration.parse(author, path: "c.toml") }
    }
}
