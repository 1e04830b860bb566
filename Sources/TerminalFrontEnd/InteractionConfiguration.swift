import Editor
import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid

/// config.toml's `[interactions.NAME]` tables made into the editor's components: `enabled`, the declarative
/// conditions of `[[interactions.NAME.when]]`, and the callback commands. A name, field or value the editor
/// does not know is refused with the line it is on.
public enum InteractionConfiguration {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { (line > 0 ? "line \(line): " : "") + reason }
    }

    /// The kinds a condition can name: the markup file's, and PDF annotation subtypes written the same way.
    static let knownKinds: Set<String> = [
        "text", "ink", "highlight", "underline", "strike-out", "note", "free-text", "square", "circle", "line", "polygon",
        "poly-line", "stamp", "caret", "file-attachment", "squiggly", "link", "widget", "popup", "sound", "movie", "redact",
        "screen", "printer-mark", "trap-net", "watermark", "3-d", "rich-media", "projection",
    ]
    static let linkTargets: Set<String> = ["destination", "uri", "named", "unsupported"]

    /// The fields a component's conditions may use.
    static func fields(for component: InteractionComponentName) -> [String] {
        let everywhere = ["pages", "pages_not", "point_inside", "point_outside"]
        switch component {
        case .selectAnnotation, .deselectAnnotation, .transformAnnotation, .editAnnotation:
            return ["kinds", "kinds_not", "author"] + everywhere
        case .openLinkAnnotation:
            return ["link_targets"] + everywhere
        case .fastScroll, .smartZoom, .toggleUserInterface, .selectText, .deselectText:
            return everywhere
        }
    }

    /// Applies the settings to `interactions`, in the file's order; returns the callback commands by component.
    @discardableResult
    public static func apply(_ settings: [InteractionSetting], to interactions: Interactions,
                             configPath: String) throws -> [InteractionComponentName: [String]] {
        var callbacks: [InteractionComponentName: [String]] = [:]
        for setting in settings {
            let members: [InteractionComponentName]
            if let single = InteractionComponentName(rawValue: setting.component) {
                members = [single]
            } else if let composite = InteractionCompositeName(rawValue: setting.component) {
                members = composite.members
            } else {
                throw Problem(line: setting.line, reason: "[interactions.\(shown(setting.component))] is no interaction component (known: "
                              + (InteractionComponentName.allCases.map(\.rawValue) + InteractionCompositeName.allCases.map(\.rawValue)).joined(separator: ", ") + ")")
            }
            let allowed = members.map { Set(fields(for: $0)) }.reduce(Set(fields(for: members[0]))) { $0.intersection($1) }
            let conditions = try setting.conditions.map { try condition($0, allowed: allowed, component: setting.component, configPath: configPath) }
            for member in members {
                let component = interactions[member]
                if let enabled = setting.enabled { component.isEnabled = enabled }
                conditions.forEach(component.addActivationCondition)
                if let callback = setting.callback { callbacks[member] = callback }
            }
        }
        return callbacks
    }

    private static func shown(_ text: String) -> String { VisibleText.excerpt(text, limit: 40) }

    private static func condition(_ setting: ConditionSetting, allowed: Set<String>, component: String,
                                  configPath: String) throws -> ActivationCondition {
        guard !setting.fields.isEmpty else {
            throw Problem(line: setting.line, reason: "[[interactions.\(shown(component)).when]] is empty: give a condition, like kinds_not = [\"ink\"]")
        }
        let parts = try setting.fields.map { try self.part($0, allowed: allowed, component: component, alternativesAllowed: true) }
        return .all(parts, name: "\(URL(fileURLWithPath: configPath).lastPathComponent) line \(setting.line)")
    }

    static let knownFields = ["kinds", "kinds_not", "author", "pages", "pages_not", "point_inside", "point_outside", "link_targets", "any"]

    /// One field of a condition; `any` holds when every field of one of its tables holds.
    private static func part(_ field: ConditionField, allowed: Set<String>, component: String,
                             alternativesAllowed: Bool) throws -> ActivationCondition {
        if field.name == "any" {
            guard alternativesAllowed else {
                throw Problem(line: field.line, reason: "any cannot hold another any: write each alternative as one table of fields")
            }
            guard case .alternatives(let tables) = field.value, tables.allSatisfy({ !$0.isEmpty }) else {
                throw Problem(line: field.line, reason: "any must be a list of tables of conditions, like [{ author = \"self\" }, { pages = [1] }]")
            }
            let alternatives = try tables.map { fields in
                ActivationCondition.all(try fields.map { try part($0, allowed: allowed, component: component, alternativesAllowed: false) },
                                        name: "alternative")
            }
            return .any(alternatives)
        }
        guard allowed.contains(field.name) else {
            let reason = knownFields.contains(field.name)
                ? "\(field.name) does not apply to \(shown(component)) (its conditions: \((allowed.sorted() + ["any"]).joined(separator: ", ")))"
                : "unknown condition field \"\(shown(field.name))\" (known: \(knownFields.joined(separator: ", ")))"
            throw Problem(line: field.line, reason: reason)
        }
        return try part(field)
    }

    private static func part(_ field: ConditionField) throws -> ActivationCondition {
        func fail(_ expected: String) -> Problem {
            Problem(line: field.line, reason: "\(field.name) must be \(expected)")
        }
        switch field.name {
        case "kinds", "kinds_not":
            guard case .strings(let kinds) = field.value, !kinds.isEmpty else { throw fail("a list of kinds, like [\"ink\", \"text\"]") }
            if let unknown = kinds.first(where: { !knownKinds.contains($0) }) {
                throw Problem(line: field.line, reason: "\(field.name): \"\(shown(unknown))\" is no kind (known: "
                              + knownKinds.sorted().joined(separator: ", ") + ")")
            }
            return field.name == "kinds" ? .kinds(Set(kinds)) : .kindsNot(Set(kinds))
        case "pages", "pages_not":
            guard case .numbers(let numbers) = field.value, !numbers.isEmpty,
                  numbers.allSatisfy({ $0 >= 1 && $0 <= 1_000_000 && $0.rounded() == $0 }) else {
                throw fail("a list of page numbers from 1 to 1000000, like [1, 2]")
            }
            let indexes = Set(numbers.map { Int($0) - 1 })
            return field.name == "pages" ? .pages(indexes) : .pagesNot(indexes)
        case "point_inside", "point_outside":
            guard case .numbers(let numbers) = field.value, numbers.count == 4, numbers.allSatisfy(\.isFinite),
                  numbers[0] < numbers[2], numbers[1] < numbers[3] else {
                throw fail("a rectangle of PDF user space [x1, y1, x2, y2] with x1 < x2 and y1 < y2, like [0, 0, 400, 200]")
            }
            return .point(inside: PDFBox(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3]), field.name == "point_inside")
        case "author":
            guard case .string(let who) = field.value, let authorship = ActivationCondition.Authorship(rawValue: who) else {
                throw fail("\"self\" or \"others\"")
            }
            return .author(authorship)
        case "link_targets":
            guard case .strings(let targets) = field.value, !targets.isEmpty, targets.allSatisfy(linkTargets.contains) else {
                throw fail("a list of link targets from \"destination\", \"uri\", \"named\", \"unsupported\"")
            }
            return .linkTargets(Set(targets))
        default:
            throw Problem(line: field.line, reason: "unknown condition field \"\(shown(field.name))\"")
        }
    }
}
