import Foundation
import TerminalGrid
import TOMLKit

/// `[interactions.NAME]` tables as written: whether the component is enabled, its callback command, and its
/// `[[interactions.NAME.when]]` conditions in order, each field with its value and line. The front end checks
/// the names against the editor's components (`InteractionConfiguration`).
public struct InteractionSetting: Sendable, Equatable {
    public var component: String
    public var line: Int
    public var enabled: Bool?
    /// A program and its arguments, given the event as a JSON line on standard input.
    public var callback: [String]?
    public var conditions: [ConditionSetting]
}

/// One `[[interactions.NAME.when]]` table: every field must hold.
public struct ConditionSetting: Sendable, Equatable {
    public var line: Int
    public var fields: [ConditionField]
}

public struct ConditionField: Sendable, Equatable {
    public var name: String
    public var line: Int
    public var value: ConditionValue
}

/// A condition's value, by TOML type.
public indirect enum ConditionValue: Sendable, Equatable {
    case string(String)
    case strings([String])
    case numbers([Double])
    /// `any = [{ author = "self" }, { pages = [1] }]`: tables of fields, each one an alternative.
    case alternatives([[ConditionField]])
    /// Anything else, described for the error that refuses it.
    case other(String)

    init(_ value: TOMLValueConvertible, line: Int) {
        if let text = value.string {
            self = .string(text)
        } else if let array = value.array, !array.isEmpty, array.allSatisfy({ $0.table != nil }) {
            // Inline tables keep no lines of their own in TOMLKit: their fields are placed on the line of `any`.
            self = .alternatives(array.map { item in
                let table = item.table!
                return table.keys.sorted().map { ConditionField(name: $0, line: line, value: ConditionValue(table[$0]!, line: line)) }
            })
        } else if let array = value.array {
            let texts = array.compactMap(\.string)
            let numbers = array.compactMap { $0.double ?? $0.int.map(Double.init) }
            if !array.isEmpty, texts.count == array.count {
                self = .strings(texts)
            } else if !array.isEmpty, numbers.count == array.count {
                self = .numbers(numbers)
            } else if array.isEmpty {
                self = .strings([])
            } else {
                self = .other("a list of mixed values")
            }
        } else if let number = value.double ?? value.int.map(Double.init) {
            self = .numbers([number])
        } else if let flag = value.bool {
            self = .other(flag ? "true" : "false")
        } else {
            self = .other("a table")
        }
    }
}

extension RedlineConfiguration {
    static let interactionKeys = ["enabled", "callback", "when"]

    static func interactionSettings(in table: TOMLTable, text: String, path: String) throws -> [InteractionSetting] {
        guard let value = table["interactions"] else { return [] }
        guard let components = value.table else {
            throw ConfigurationError(path: path, message: "line \(TOMLLines.keyLine("interactions", in: text)): interactions must be tables like [interactions.selectAnnotation]")
        }
        var settings: [InteractionSetting] = []
        for name in components.keys {
            let shown = VisibleText.excerpt(name, limit: 40)
            let line = TOMLLines.tableLine("interactions." + name, in: text)
            guard let component = components[name]?.table else {
                throw ConfigurationError(path: path, message: "line \(line): interactions.\(shown) must be a table, like [interactions.\(shown)] with enabled = false")
            }
            for key in component.keys where !interactionKeys.contains(key) {
                throw ConfigurationError(path: path, message: "line \(TOMLLines.keyLine(key, inTable: "interactions." + name, in: text)): "
                                         + "unknown setting \"\(VisibleText.excerpt(key, limit: 40))\" in [interactions.\(shown)] (known: enabled, callback, when)")
            }
            var setting = InteractionSetting(component: name, line: line, conditions: [])
            if let enabled = component["enabled"] {
                guard let flag = enabled.bool else {
                    throw ConfigurationError(path: path, message: "line \(TOMLLines.keyLine("enabled", inTable: "interactions." + name, in: text)): "
                                             + "enabled in [interactions.\(shown)] must be true or false")
                }
                setting.enabled = flag
            }
            if let callback = component["callback"] {
                let words = callback.string.map { [$0] } ?? callback.array?.compactMap(\.string)
                guard let words, !words.isEmpty, words.count == (callback.array?.count ?? 1), words.allSatisfy({ !$0.isEmpty }) else {
                    throw ConfigurationError(path: path, message: "line \(TOMLLines.keyLine("callback", inTable: "interactions." + name, in: text)): "
                                             + "callback in [interactions.\(shown)] must be a program, like \"/usr/local/bin/log-event\", or a list like [\"logger\", \"-t\", \"redline\"]")
                }
                setting.callback = words
            }
            if let when = component["when"] {
                guard let tables = when.array, tables.allSatisfy({ $0.table != nil }) else {
                    throw ConfigurationError(path: path, message: "line \(TOMLLines.keyLine("when", inTable: "interactions." + name, in: text)): "
                                             + "when in [interactions.\(shown)] must be [[interactions.\(shown).when]] tables of conditions")
                }
                for (index, item) in tables.enumerated() {
                    let conditionTable = item.table!
                    let conditionLine = TOMLLines.tableLine("interactions." + name + ".when", occurrence: index, in: text)
                    let fields = conditionTable.keys.map { field in
                        let fieldLine = TOMLLines.keyLine(field, after: conditionLine, in: text)
                        return ConditionField(name: field, line: fieldLine, value: ConditionValue(conditionTable[field]!, line: fieldLine))
                    }.sorted { ($0.line, $0.name) < ($1.line, $1.name) }
                    setting.conditions.append(ConditionSetting(line: conditionLine, fields: fields))
                }
            }
            settings.append(setting)
        }
        // In the file's order: a composite switched off and a member switched on again after it.
        return settings.sorted { ($0.line, $0.component) < ($1.line, $1.component) }
    }
}

/// Lines of a TOML text, found by searching it: TOMLKit keeps no positions. 0 when not found.
enum TOMLLines {
    static func lines(_ text: String) -> [String] {
        text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The header of a table (`[a.b]`) or the `occurrence`th of an array of tables (`[[a.b]]`); else the line
    /// of its last part written as a key.
    static func tableLine(_ name: String, occurrence: Int = 0, in text: String) -> Int {
        var seen = 0
        let name = name.replacingOccurrences(of: " ", with: "")
        for (index, line) in lines(text).enumerated() {
            let compact = line.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\"", with: "")
            if compact.hasPrefix("[[" + name + "]]") || (occurrence == 0 && compact.hasPrefix("[" + name + "]")) {
                if seen == occurrence { return index + 1 }
                seen += 1
            }
        }
        let last = name.split(separator: ".").last.map(String.init) ?? name
        return keyLine(last, in: text)
    }

    /// The first line that sets `key` (bare or quoted), anywhere.
    static func keyLine(_ key: String, in text: String) -> Int {
        keyLine(key, after: 0, in: text)
    }

    /// The first line after `start` (a 1-based line) that sets `key`.
    static func keyLine(_ key: String, after start: Int, in text: String) -> Int {
        let forms = [key, "\"" + key + "\"", "'" + key + "'"]
        for (index, line) in lines(text).enumerated() where index + 1 > start {
            for form in forms where line.hasPrefix(form) {
                if line.dropFirst(form.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") { return index + 1 }
            }
        }
        return start
    }

    /// The line setting `key` in a table, searched from the table's header.
    static func keyLine(_ key: String, inTable table: String, in text: String) -> Int {
        keyLine(key, after: tableLine(table, in: text), in: text)
    }
}
