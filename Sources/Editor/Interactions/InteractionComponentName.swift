import TerminalGrid

/// The user interactions that can be switched off, given activation conditions and callbacks, and reimplemented
/// on other keys (docs/interactions.md). Names as the seed's components, so config.toml says
/// `[interactions.selectAnnotation]`.
public enum InteractionComponentName: String, Sendable, CaseIterable, Hashable, Codable {
    case selectAnnotation, deselectAnnotation, transformAnnotation, editAnnotation, openLinkAnnotation
    case fastScroll, smartZoom, toggleUserInterface, selectText, deselectText

    /// The commands through which the component acts, in each context. A mouse key (`Click`, the wheel) is the
    /// component's when the command it runs is listed here; `scroll-down` and `scroll-up` only from the wheel,
    /// since the wheel is what turns pages at a page's edge.
    public var commands: [KeymapContext: [EditorCommand]] {
        switch self {
        case .selectAnnotation:
            [.page: [.selectNext, .selectPrevious, .pointAt, .trySelectAnnotation], .annotations: [.selectClicked]]
        case .deselectAnnotation: [.page: [.deselect, .pointAt, .tryDeselectAnnotation]]
        case .transformAnnotation:
            [.page: [.moveUp, .moveDown, .moveLeft, .moveRight, .moveFarUp, .moveFarDown, .moveFarLeft, .moveFarRight,
                      .bigger, .smaller, .pointAt]]
        case .editAnnotation: [.page: [.editSelection, .tryEditAnnotation], .annotations: [.editReply]]
        case .openLinkAnnotation: [.page: [.followLink, .pointAt, .tryOpenLink]]
        case .fastScroll: [.page: [.pointAt, .scrollDown, .scrollUp, .tryFastScroll]]
        case .smartZoom: [.page: [.smartZoom, .pointAt, .trySmartZoom]]
        case .toggleUserInterface:
            [.page: [.toggleInterface, .tryToggleInterface], .annotations: [.toggleInterface],
             .bookmarks: [.toggleInterface], .outline: [.toggleInterface]]
        case .selectText: [.page: [.selectText, .pointAt, .trySelectText]]
        case .deselectText: [.selection: [.deselectText, .pointAt, .tryDeselectText], .page: [.tryDeselectText]]
        }
    }

    /// The key-binding verb that performs the interaction from the user's own key, ignoring `enabled` but
    /// keeping the conditions (`try-select-annotation`); nil for a transform, which is a drag or a nudge.
    public var tryCommand: EditorCommand? {
        switch self {
        case .selectAnnotation: .trySelectAnnotation
        case .deselectAnnotation: .tryDeselectAnnotation
        case .transformAnnotation: nil
        case .editAnnotation: .tryEditAnnotation
        case .openLinkAnnotation: .tryOpenLink
        case .fastScroll: .tryFastScroll
        case .smartZoom: .trySmartZoom
        case .toggleUserInterface: .tryToggleInterface
        case .selectText: .trySelectText
        case .deselectText: .tryDeselectText
        }
    }

    /// Whether a key (or mouse action) starts this interaction in a context, under the given keymaps.
    public func contains(_ key: Key, in context: KeymapContext = .page, keymaps: Keymaps = .standard) -> Bool {
        guard let command = keymaps.command(for: key, in: context), commands[context]?.contains(command) == true else { return false }
        if command == .scrollDown || command == .scrollUp { return key == .wheelDown || key == .wheelUp }
        return true
    }

    /// What the component governs, in a line of docs/interactions.md and the message of a refusal.
    public var summary: String {
        switch self {
        case .selectAnnotation: "selecting markup (Tab, S-Tab, a click) and, with the list open, an annotation clicked on the page"
        case .deselectAnnotation: "ending a markup selection (Esc, a click beside it)"
        case .transformAnnotation: "moving a selected markup (arrows, a drag) and its size or ink width (+, -)"
        case .editAnnotation: "editing a text markup's text (Enter) and your own reply (e in the list)"
        case .openLinkAnnotation: "following links (f and a label, a click on a link)"
        case .fastScroll: "turning pages by a click in the page area's left or right fifth, and by the wheel at a page's edge"
        case .smartZoom: "smart zoom (s, a double click)"
        case .toggleUserInterface: "hiding and showing the status line, message line and panels (F)"
        case .selectText: "selecting the page's words (v, a drag over text)"
        case .deselectText: "ending a text selection (Esc or v, a click)"
        }
    }
}

/// The components made of others: setting one sets every member, and asking one asks every member.
public enum InteractionCompositeName: String, Sendable, CaseIterable, Hashable {
    case allAnnotationInteractions, allTextInteractions, allInteractions

    public var members: [InteractionComponentName] {
        switch self {
        case .allAnnotationInteractions: [.selectAnnotation, .deselectAnnotation, .transformAnnotation, .editAnnotation, .openLinkAnnotation]
        case .allTextInteractions: [.selectText, .deselectText]
        case .allInteractions: InteractionComponentName.allCases
        }
    }
}
