import Foundation
import RedlineCore
import TerminalGrid
import TOMLKit

/// The user's settings from `config.toml` (docs/configuration.md). A missing file means the defaults;
/// a file that cannot be used is an error that names the file, the line and the setting.
public struct RedlineConfiguration: Sendable, Equatable {
    /// The name written into replies and review states.
    public var author: String?
    /// False turns the replies and review interface off: the list still shows annotations, without thread actions.
    public var replies: Bool = true
    /// The bookmark provider chain, first asked first: `xmp` (the document's metadata), `sidecar` (a file of Redline's own).
    public var bookmarkProviders: [String] = Self.defaultBookmarkProviders
    /// `bookmarks_in_outline`: the bookmarks are written into the document outline as well, in a folder of their own
    /// (for Acrobat, Okular and zathura, which never read them from the metadata), and changes made there read back.
    public var bookmarksInOutline = false
    /// The order the bookmarks panel and `redline bookmarks` start in.
    public var bookmarkOrder: BookmarkOrder = .custom
    /// The colours `c` cycles through: `text_colors` for text and pen ink, `highlighter_colors` for the highlighter.
    public var palettes: MarkupPalettes = .standard
    /// `[keys.CONTEXT]` tables as written: which key name the user binds to which command name, and the line.
    /// The editor checks them against its keymaps (`KeymapConfiguration`).
    public var keyBindings: [KeyBindingSetting] = []
    /// `open_command`: what opens a web link the user follows; nil opens nothing (the address is only copied).
    public var openCommand: [String]?
    /// `graphics`: how the page is drawn; `auto` asks the terminal.
    public var graphics: GraphicsRequest = .auto
    /// `recolor`: pages open dark (`I` turns it over); `recolor_dark` and `recolor_light`: the colours white paper
    /// and black text become.
    public var recolors = false
    public var recolor = PageRecolor.standard
    /// `save_mode`: what `:w` does with the markup: `flatten` burns it into the pages, `annotations` keeps it editable.
    public var saveMode: MarkupSaveMode = .flatten
    /// `save_strategy`: `append` adds what changed to the original's bytes (signatures stay valid) wherever that is
    /// right; `rewrite` always writes the whole document anew.
    public var saveStrategy: SaveStrategy = .append
    /// `[interactions.NAME]` tables as written, in the file's order.
    public var interactionSettings: [InteractionSetting] = []

    /// `[collab] server`: the collaboration server `redline collab` talks to; `[collab] token`: the user's token there.
    public var collabServer: String?
    public var collabToken: String?
    /// In a shared session, only an annotation's author may select, move or edit it on the page (`[collab]
    /// author_only`, on unless switched off; the server refuses others' changes either way).
    public var collabAuthorOnly = true

    public static let defaultBookmarkProviders = ["xmp", "sidecar"]

    public init(author: String? = nil, replies: Bool = true, bookmarkProviders: [String] = Self.defaultBookmarkProviders,
                bookmarkOrder: BookmarkOrder = .custom) {
        self.author = author
        self.replies = replies
        self.bookmarkProviders = bookmarkProviders
        self.bookmarkOrder = bookmarkOrder
    }

    /// `$XDG_CONFIG_HOME/redline/config.toml`, by default `~/.config/redline/config.toml`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/redline/config.toml" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/redline/config.toml"
    }

    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Self {
        try load(path: defaultPath(environment: environment))
    }

    public static func load(path: String) throws -> Self {
        guard FileManager.default.fileExists(atPath: path) else { return Self() }
        // Read only a regular file of a sensible size: a FIFO would block for ever, /dev/zero never end.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ConfigurationError(path: path, message: "is not a regular file")
        }
        guard status.st_size <= 1 << 20 else { throw ConfigurationError(path: path, message: "is larger than 1 MB") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: path, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(path: path, message: "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    static let knownKeys = ["author", "replies", "bookmark_providers", "bookmarks_in_outline", "bookmark_order", "text_colors", "highlighter_colors",
                            "open_command", "graphics", "recolor", "recolor_dark", "recolor_light", "save_mode", "save_strategy", "keys", "interactions", "collab"]

    public static func parse(_ text: String, path: String) throws -> Self {
        // TOML allows no control character but tab and line ends, and the parser reads a C string: a NUL
        // would silently end the file there, dropping every setting after it.
        if let index = text.unicodeScalars.firstIndex(where: { $0.value < 0x20 && !["\t", "\n", "\r"].contains($0) || $0.value == 0x7F }) {
            let line = text.unicodeScalars[..<index].filter { $0 == "\n" }.count + 1
            let value = text.unicodeScalars[index].value
            throw ConfigurationError(path: path, message: "line \(line): the control character U+\(String(format: "%04X", value)) is not allowed in TOML")
        }
        if let line = TOMLNesting.lineNestedDeeperThan(TOMLNesting.deepest, in: text) {
            throw ConfigurationError(path: path, message: "line \(line): keys, tables or arrays nest more than \(TOMLNesting.deepest) levels deep")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(path: path, message: "line \(error.source.begin.line): \(error.description)")
        }
        var configuration = Self()
        for key in table.keys {
            guard knownKeys.contains(key) else {
                throw ConfigurationError(path: path, message: "unknown setting \"\(VisibleText.excerpt(key, limit: 60))\" (known: \(knownKeys.joined(separator: ", ")))")
            }
        }
        if let value = table["author"] {
            guard let author = value.string else {
                throw ConfigurationError(path: path, message: "author must be a string, like author = \"Alice\"")
            }
            let trimmed = author.trimmingCharacters(in: .whitespacesAndNewlines)
            configuration.author = trimmed.isEmpty ? nil : trimmed
        }
        if let value = table["replies"] {
            guard let replies = value.bool else {
                throw ConfigurationError(path: path, message: "replies must be true or false")
            }
            configuration.replies = replies
        }
        if let value = table["bookmark_providers"] {
            guard let array = value.array, !array.isEmpty else {
                throw ConfigurationError(path: path, message: "bookmark_providers must be a list like [\"xmp\", \"sidecar\"]")
            }
            let names = try array.map { item -> String in
                guard let name = item.string, ["xmp", "sidecar"].contains(name) else {
                    throw ConfigurationError(path: path, message: "bookmark_providers: \(VisibleText.excerpt("\(item)", limit: 60)) is not \"xmp\" or \"sidecar\"")
                }
                return name
            }
            guard Set(names).count == names.count else {
                throw ConfigurationError(path: path, message: "bookmark_providers names a provider twice")
            }
            configuration.bookmarkProviders = names
        }
        if let value = table["bookmarks_in_outline"] {
            guard let mirrored = value.bool else {
                throw ConfigurationError(path: path, message: "bookmarks_in_outline must be true or false")
            }
            configuration.bookmarksInOutline = mirrored
        }
        if let order: BookmarkOrder = try choice("bookmark_order", in: table, path: path,
                                                 otherwise: "bookmark_order must be \"custom\" or \"page\"") {
            configuration.bookmarkOrder = order
        }
        if let value = table["open_command"] {
            // A program and its arguments, run with the link's address added last: never through a shell, so
            // nothing in an address a document carries can become a command.
            let words = value.string.map { [$0] } ?? value.array?.compactMap(\.string)
            guard let words, !words.isEmpty, words.count == (value.array?.count ?? 1), words.allSatisfy({ !$0.isEmpty }) else {
                throw ConfigurationError(path: path, message: "open_command must be a program, like open_command = \"xdg-open\", or a list like [\"firefox\", \"--new-tab\"]")
            }
            configuration.openCommand = words
        }
        if let request: GraphicsRequest = try choice("graphics", in: table, path: path,
                                                     otherwise: "graphics must be one of \(GraphicsRequest.names), like graphics = \"auto\"") {
            configuration.graphics = request
        }
        if let value = table["recolor"] {
            guard let recolors = value.bool else { throw ConfigurationError(path: path, message: "recolor must be true or false") }
            configuration.recolors = recolors
        }
        for (key, isDark) in [("recolor_dark", true), ("recolor_light", false)] {
            guard let value = table[key] else { continue }
            guard let text = value.string, let rgb = RGBColor(hex: text) else {
                throw ConfigurationError(path: path, message: "\(key): \(VisibleText.excerpt("\(value)", limit: 60)) is not a colour #RRGGBB, like \(key) = \""
                                         + (isDark ? "#1C1C1E" : "#E8E6E3") + "\"")
            }
            let packed = UInt32(rgb.red) << 16 | UInt32(rgb.green) << 8 | UInt32(rgb.blue)
            if isDark { configuration.recolor.dark = packed } else { configuration.recolor.light = packed }
        }
        if let mode: MarkupSaveMode = try choice("save_mode", in: table, path: path,
                                                 otherwise: "save_mode must be \"flatten\" or \"annotations\", like save_mode = \"flatten\"") {
            configuration.saveMode = mode
        }
        if let strategy: SaveStrategy = try choice("save_strategy", in: table, path: path,
                                                   otherwise: "save_strategy must be \"append\" or \"rewrite\", like save_strategy = \"append\"") {
            configuration.saveStrategy = strategy
        }
        configuration.palettes = MarkupPalettes(text: try colors("text_colors", in: table, path: path) ?? MarkupColor.cycle,
                                                highlighter: try colors("highlighter_colors", in: table, path: path)
                                                    ?? MarkupColor.highlighterCycle)
        configuration.keyBindings = try keyBindings(in: table, text: text, path: path)
        configuration.interactionSettings = try interactionSettings(in: table, text: text, path: path)
        if let value = table["collab"] {
            guard let collab = value.table else {
                throw ConfigurationError(path: path, message: "collab must be a table: [collab] with server = \"ws://HOST:PORT\" and token = \"…\"")
            }
            for key in collab.keys where !["server", "token", "author_only"].contains(key) {
                throw ConfigurationError(path: path, message: "unknown setting collab.\(VisibleText.excerpt(key, limit: 60)) (known: server, token, author_only)")
            }
            if let value = collab["author_only"] {
                guard let flag = value.bool else { throw ConfigurationError(path: path, message: "collab.author_only must be true or false") }
                configuration.collabAuthorOnly = flag
            }
            for (key, value) in [("server", collab["server"]), ("token", collab["token"])] {
                guard let value else { continue }
                guard let text = value.string, !text.isEmpty,
                      !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw ConfigurationError(path: path, message: "collab.\(key) must be a string without control characters")
                }
                if key == "server" { configuration.collabServer = text } else { configuration.collabToken = text }
            }
        }
        return configuration
    }

    /// `[keys.page]` and the like: tables of key names and command names, each with the line it is on.
    private static func keyBindings(in table: TOMLTable, text: String, path: String) throws -> [KeyBindingSetting] {
        guard let value = table["keys"] else { return [] }
        guard let contexts = value.table else {
            throw ConfigurationError(path: path, message: "keys must be tables like [keys.page], each binding \"key\" = \"command\"")
        }
        var settings: [KeyBindingSetting] = []
        for context in contexts.keys.sorted() {
            guard let bindings = contexts[context]?.table else {
                throw ConfigurationError(path: path, message: "keys.\(VisibleText.excerpt(context, limit: 40)) must be a table of \"key\" = \"command\"")
            }
            for key in bindings.keys.sorted() {
                let line = lineOf(key: key, inTable: "keys." + context, text: text)
                guard let command = bindings[key]?.string else {
                    throw ConfigurationError(path: path, message: "line \(line): \(VisibleText.excerpt(key, limit: 40)) in [keys.\(VisibleText.excerpt(context, limit: 40))] must name a command, like \"next-page\"")
                }
                settings.append(KeyBindingSetting(context: context, key: key, command: command, line: line))
            }
        }
        return settings.sorted { $0.line < $1.line }
    }

    /// The line a key of a table is on: TOMLKit keeps no positions, so the text is searched for the key in its
    /// table (a quoted or bare key, or a dotted one under `[keys]`). 0 when it cannot be found.
    static func lineOf(key: String, inTable table: String, text: String) -> Int {
        let lines = text.components(separatedBy: "\n")
        let quotedKey = "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let forms = [quotedKey, "'" + key + "'", key]
        var current = ""
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                current = line[line.index(after: line.startIndex)..<end].replacingOccurrences(of: " ", with: "")
                continue
            }
            let prefix = current == table ? "" : current == "keys" ? String(table.dropFirst("keys.".count)) + "." : nil
            guard let prefix else { continue }
            for form in forms where line.hasPrefix(prefix + form) {
                let rest = line.dropFirst((prefix + form).count).trimmingCharacters(in: .whitespaces)
                if rest.hasPrefix("=") { return index + 1 }
            }
        }
        return 0
    }

    /// A palette setting: a list of one to 16 colour names or #RRGGBB values.
    /// A setting naming one of a fixed set of values; `message` when it names anything else (or is not text).
    private static func choice<Value: RawRepresentable>(_ key: String, in table: TOMLTable, path: String,
                                                         otherwise message: String) throws -> Value? where Value.RawValue == String {
        guard let value = table[key] else { return nil }
        guard let name = value.string, let chosen = Value(rawValue: name) else { throw ConfigurationError(path: path, message: message) }
        return chosen
    }

    private static func colors(_ key: String, in table: TOMLTable, path: String) throws -> [MarkupColor]? {
        guard let value = table[key] else { return nil }
        guard let array = value.array, (1...16).contains(array.count) else {
            throw ConfigurationError(path: path, message: "\(key) must be a list of 1 to 16 colours, like [\"yellow\", \"#FF8800\"]")
        }
        let colors = try array.map { item -> MarkupColor in
            guard let name = item.string, let color = MarkupColor(name: name) else {
                throw ConfigurationError(path: path, message: "\(key): \(VisibleText.excerpt("\(item)", limit: 60)) is not \(MarkupColor.names)")
            }
            return color
        }
        guard Set(colors).count == colors.count else {
            throw ConfigurationError(path: path, message: "\(key) names a colour twice")
        }
        return colors
    }

    /// Who the user is: `--author`, else the configuration's author, else the login name.
    public func resolvedAuthor(override: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override = override?.trimmingCharacters(in: .whitespacesAndNewlines), !override.isEmpty { return override }
        if let author { return author }
        if let user = environment["USER"] ?? environment["LOGNAME"], !user.isEmpty { return user }
        let name = NSUserName()
        return name.isEmpty ? "unknown" : name
    }
}

/// One `"key" = "command"` of a `[keys.CONTEXT]` table, as written.
public struct KeyBindingSetting: Sendable, Equatable {
    public let context: String
    public let key: String
    public let command: String
    public let line: Int
}

public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    /// The message is one line of bounded length, whatever the file holds.
    public init(path: String, message: String) {
        self.path = path
        self.message = VisibleText.line(message, limit: 300)
    }

    public var description: String { "\(path): \(message)" }
}
