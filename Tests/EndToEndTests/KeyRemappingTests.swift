import Foundation
import TestSupport
import Testing

/// config.toml's `[keys.…]` tables in the real binary.
@Suite struct KeyRemappingTests {
    @Test func aKeyBoundInTheConfigurationTurnsThePageInTheEditor() throws {
        let command = try RedlineCommand(config: "author = \"Ann\"\n\n[keys.page]\n\"n\" = \"next-page\"\n\"C-b\" = \"previous-page\"\n")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'",
                                   environment: command.environment)
        tmux.keep(command.folder)
        try tmux.waitFor("page 1/4")
        try tmux.send("n")
        try tmux.waitFor("page 2/4")
        try tmux.send("n")
        try tmux.waitFor("page 3/4")
        try tmux.send("C-b")
        try tmux.waitFor("page 2/4")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
        let listed = try command.run(["keys"])
        #expect(listed.status == 0)
        #expect(listed.stdout.split(separator: "\n").contains { $0.contains("PageDown n") && $0.contains("next-page") })
    }

    @Test(arguments: [
        ("[keys.page]\n\"n\" = \"next-pgae\"\n", #"line 2: "n": unknown command "next-pgae""#),
        ("replies = true\n[keys.page]\n\"j\" = \"scroll-down\"\n\"F13\" = \"quit\"\n", #"line 4: "F13" is not a key that can be bound"#),
        ("[keys]\npage.\"x\" = \"reply\"\n", #"line 2: "x": reply is not a command of [keys.page]"#),
    ])
    func aBadBindingIsOneLineNamingFileLineAndKeyWithExitOne(config: String, message: String) throws {
        let command = try RedlineCommand(config: config)
        let result = try command.run([TestPaths.sample])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("redline: \(command.configFolder)/redline/config.toml: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try command.run(["keys"]).status == 1)
    }
}
