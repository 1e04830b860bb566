import RedlineKit
import Editor
import Foundation
import NcursesTerminal
import RedlineCore

/// Opens a document and runs the editor on it. Every problem with the file is found before the screen
/// is taken over, so a failure is one line on stderr, never a half-drawn screen.
public enum EditorLauncher {
    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
        public let exitCode: Int32
    }

    public static func launch(path: String, page: Int, password: String?, reviewer: Reviewer,
                              configuration: RedlineConfiguration) throws {
        // A bad key binding is found before anything else: one line naming the file, line and key, exit 1.
        let keymaps = try Self.keymaps(configuration)
        let services = RedlineServices()
        var document: OpenedDocument?
        var screen: NcursesScreen?
        defer { screen?.stop() }
        do {
            document = try OpenedDocument(path: path, password: password)
        } catch DocumentError.passwordRequired(let path) where password == nil && isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 {
            let started = try start()
            screen = started
            document = try askPassword(path: path, screen: started)
        }
        guard let document else { return }
        guard page <= document.description.pageCount else {
            throw LaunchError(description: "\(path): there is no page \(page) (the document has \(document.description.pageCount))",
                              exitCode: 1)
        }
        let running = try screen ?? start()
        screen = running
        EditorSession(document: document, screen: running, services: services, startPage: page - 1, reviewer: reviewer,
                      configuration: configuration, keymaps: keymaps).run()
    }

    /// The standard keymaps with config.toml's `[keys.…]` bindings over them.
    public static func keymaps(_ configuration: RedlineConfiguration) throws -> Keymaps {
        do {
            return try Keymaps.standard.remapped(configuration.keyBindings.map {
                Keymaps.Binding(context: $0.context, key: $0.key, command: $0.command, line: $0.line)
            })
        } catch let error as Keymaps.RemappingError {
            throw LaunchError(description: "\(RedlineConfiguration.defaultPath()): \(error)", exitCode: 1)
        }
    }

    private static func start() throws -> NcursesScreen {
        do {
            return try NcursesScreen(standardErrorLog: MarkupJournal.standardErrorLog())
        } catch {
            throw LaunchError(description: "\(error)", exitCode: 1)
        }
    }

    /// Three tries, as with a login; Esc gives up.
    private static func askPassword(path: String, screen: NcursesScreen) throws -> OpenedDocument {
        var problem: String?
        for _ in 0..<3 {
            guard let typed = PasswordPrompt.ask(on: screen, fileName: URL(fileURLWithPath: path).lastPathComponent,
                                                 problem: problem) else { break }
            do {
                return try OpenedDocument(path: path, password: typed)
            } catch DocumentError.wrongPassword {
                problem = "Wrong password, try again (Esc gives up)"
            }
        }
        screen.stop()
        throw DocumentError.wrongPassword(path: path)
    }
}
