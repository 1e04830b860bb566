import RedlineKit
import Editor
import Foundation
import NcursesTerminal
import RedlineCore
import TerminalGrid

/// Opens a document and runs the editor on it. Every problem with the file is found before the screen
/// is taken over, so a failure is one line on stderr, never a half-drawn screen.
public enum EditorLauncher {
    /// `redline --probe`: what the terminal answered about itself, asked before any screen is taken. The terminal
    /// is the process's own (/dev/tty), so the report can go to a file or a pipe; nil without one.
    public static func probeReport(environment: [String: String]) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        return TerminalProbe.run(input: terminal, output: terminal, environment: environment,
                                 tmuxPassthrough: TerminalProbe.tmuxPassthrough(environment: environment)).report
    }

    /// The graphics mode for the terminal the editor runs in: asked of the terminal unless symbols were asked for.
    static func chooseGraphics(_ request: GraphicsRequest) -> GraphicsChoice {
        guard request != .symbols else { return GraphicsChoice(mode: .symbols) }
        let environment = ProcessInfo.processInfo.environment
        let passthrough = TerminalProbe.tmuxPassthrough(environment: environment)
        let finding = TerminalProbe.run(environment: environment, tmuxPassthrough: passthrough)
        return GraphicsChoice.choose(request, replies: finding.replies, environment: finding.environment,
                                     columns: finding.columns, rows: finding.rows, windowPixels: finding.windowPixels,
                                     tmuxPassthrough: passthrough)
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
        public let exitCode: Int32
    }

    /// `page` from 1; nil opens the document where the reader left it (the first page the first time).
    public static func launch(path: String, page: Int?, password: String?, reviewer: Reviewer,
                              configuration: RedlineConfiguration, graphics: GraphicsRequest? = nil, eventsPath: String? = nil,
                              interactions: Interactions = Interactions(),
                              configuredCallbacks: [InteractionComponentName: [String]]? = nil, shared: SharedLaunch? = nil,
                              endsProcess: Bool = false) throws {
        // A bad key binding or interaction setting is found before anything else: one line naming the file, the
        // line and the key, exit 1.
        let keymaps = try Self.keymaps(configuration)
        // Applied once: an embedding RedlineEditor applied them before its own code added more.
        let callbacks = try configuredCallbacks ?? Self.interactions(configuration, into: interactions)
        let listeners = try InteractionListeners(eventsPath: eventsPath, callbacks: callbacks)
        if let shared, shared.authorOnly {
            for component in [interactions.selectAnnotation, interactions.transformAnnotation, interactions.editAnnotation] {
                component.addActivationCondition(.sharedAuthorOnly)
            }
        }
        let services = RedlineServices()
        var document: OpenedDocument?
        var screen: NcursesScreen?
        var session: EditorSession?
        defer {
            screen?.stop()
            // Once an editor ran, `redline` ends here, without exit()'s destructors: poppler's globals (loaded with
            // the document) were pulled from under a thread still inside poppler, a render left running or one only
            // finishing (a crash at quit, rare, seen in the shared-session tests under load). The terminal is
            // restored, every save and the journal are written; stdio's buffers are flushed first. A program
            // embedding the editor goes on after it, unless poppler is still drawing.
            if session != nil, endsProcess || session?.leftWorkRunning == true {
                fflush(nil)
                _exit(0)
            }
        }
        do {
            document = try OpenedDocument(path: path, password: password, readingOutline: configuration.bookmarksInOutline)
        } catch DocumentError.passwordRequired(let path) where password == nil && isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 {
            let started = try start()
            screen = started
            document = try askPassword(path: path, screen: started, readingOutline: configuration.bookmarksInOutline)
        }
        guard let document else { return }
        var shared = shared
        if shared != nil {
            do {
                shared?.document = try document.description.permanentID
                    ?? DocumentIdentity.derived(fromBytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                throw LaunchError(description: "\(path): \(error.localizedDescription)", exitCode: 1)
            }
        }
        if let page, page > document.description.pageCount {
            throw LaunchError(description: "\(path): there is no page \(page) (the document has \(document.description.pageCount))",
                              exitCode: 1)
        }
        // Asked before ncurses takes the screen, so no answer is ever read as a key.
        let choice = screen == nil ? chooseGraphics(graphics ?? configuration.graphics) : GraphicsChoice(mode: .symbols)
        let running = try screen ?? start()
        screen = running
        if choice.pixelMouse { running.reportMouseInPixels(cell: choice.cellPixels ?? GraphicsChoice.assumedCell) }
        let editor = EditorSession(document: document, screen: running, services: services, startPage: (page ?? 1) - 1, reviewer: reviewer,
                                   configuration: configuration, keymaps: keymaps, interactions: interactions,
                                   listeners: listeners.isListening ? listeners : nil, graphics: choice, shared: shared,
                                   places: ReadingPlaces(), restoresPlace: page == nil)
        session = editor
        editor.run()
    }

    /// config.toml's `[interactions.…]` tables applied to the components; the callback commands by component.
    public static func interactions(_ configuration: RedlineConfiguration,
                                    into interactions: Interactions) throws -> [InteractionComponentName: [String]] {
        do {
            return try InteractionConfiguration.apply(configuration.interactionSettings, to: interactions,
                                                      configPath: RedlineConfiguration.defaultPath())
        } catch let problem as InteractionConfiguration.Problem {
            throw LaunchError(description: "\(RedlineConfiguration.defaultPath()): \(problem)", exitCode: 1)
        }
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
    private static func askPassword(path: String, screen: NcursesScreen, readingOutline: Bool) throws -> OpenedDocument {
        var problem: String?
        for _ in 0..<3 {
            guard let typed = PasswordPrompt.ask(on: screen, fileName: URL(fileURLWithPath: path).lastPathComponent,
                                                 problem: problem) else { break }
            do {
                return try OpenedDocument(path: path, password: typed, readingOutline: readingOutline)
            } catch DocumentError.wrongPassword {
                problem = "Wrong password, try again (Esc gives up)"
            }
        }
        screen.stop()
        throw DocumentError.wrongPassword(path: path)
    }
}
