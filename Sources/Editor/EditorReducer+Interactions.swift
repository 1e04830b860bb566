import RedlineCore
import TerminalGrid

/// Where the interaction components (docs/interactions.md) decide: every interaction asks `permits` just
/// before it changes anything. Off, or refused by a condition, it does nothing and the message line names the
/// component (once per component); allowed, its callbacks run, then the change.
extension EditorReducer {
    /// Where the event being handled happens: the pointer's cell for a mouse action, the cursor for a key.
    static func currentLocation(_ state: EditorState) -> InteractionLocation {
        switch state.interaction.input {
        case .pointer:
            let (column, row) = state.interaction.pointer
            return InteractionLocation(Point(x: Double(column) + 0.5, y: Double(row) + 0.5), in: .cells)
        case .key:
            return InteractionLocation(state.cursor, in: .display)
        }
    }

    static func space(_ state: EditorState, _ kind: CoordinateSpaceKind, _ env: EditorEnvironment) -> InteractionSpace {
        let area = state.layout.pageArea
        return InteractionSpace(kind: kind, pageIndex: state.pageIndex, geometry: state.document.pages[state.pageIndex],
                                viewport: state.viewport(cellPixels: env.cellPixels), areaOrigin: (area.column, area.row))
    }

    static func context(_ name: InteractionComponentName, _ state: EditorState, annotation: InteractionSubject? = nil,
                        link: PageLink? = nil, targetRect: Rect? = nil) -> InteractionContext {
        InteractionContext(component: name, pageIndex: state.pageIndex, annotation: annotation, link: link, targetRect: targetRect,
                           reviewer: state.reviewer.author)
    }

    static func subject(_ item: MarkupItem, _ state: EditorState, _ env: EditorEnvironment) -> InteractionSubject {
        InteractionSubject(item, author: state.reviewer.author, measuredBy: env.measurer)
    }

    /// Whether the interaction may happen now. Runs the callbacks when it may; says why when it may not.
    static func permits(_ state: inout EditorState, _ name: InteractionComponentName, _ context: InteractionContext,
                        _ env: EditorEnvironment, at location: InteractionLocation? = nil) -> Bool {
        let location = location ?? currentLocation(state)
        let store = env.interactions.store(name)
        let space = space(state, location.space, env)
        var refusal: String?
        var plainly: String?
        if state.interaction.trying != name, !store.isEnabled {
            refusal = "disabled"
        } else if let failed = store.conditions.firstIndex(where: { !$0.holds(context, location.point, space) }) {
            refusal = "condition \(failed + 1) (\(store.conditions[failed].refusal(context)))"
            plainly = store.conditions[failed].plainRefusal?(context)
        }
        report(&state, name, context, location, space, refusal: refusal, env)
        guard let refusal else {
            for callback in store.callbacks { callback(context, location.point, space) }
            return true
        }
        // Each reason once: a wheel or a held key would otherwise fill the line.
        if let plainly {
            // A rule of the session's own, said as what it means, every time it stops something.
            state.message = plainly
        } else if state.interaction.refusalsSaid.insert("\(name.rawValue) \(refusal)").inserted {
            state.message = refusal == "disabled"
                ? "\(name.rawValue) is switched off (said once)"
                : "\(name.rawValue) refused by its \(refusal) (said once)"
        }
        return false
    }

    /// Reports, for `--events`, a selection refused without a word: Tab passing over what its conditions refuse.
    /// The message line stays the selection's.
    static func reportPassedOver(_ state: inout EditorState, _ context: InteractionContext, at location: InteractionLocation,
                                 _ env: EditorEnvironment) {
        let store = env.interactions.store(.selectAnnotation)
        let space = space(state, location.space, env)
        guard let failed = store.conditions.firstIndex(where: { !$0.holds(context, location.point, space) }) else { return }
        report(&state, .selectAnnotation, context, location, space,
               refusal: "condition \(failed + 1) (\(store.conditions[failed].name))", env)
    }

    /// An annotation component's question about one markup (at the pointer or cursor unless told where).
    static func permits(_ state: inout EditorState, _ name: InteractionComponentName, on item: MarkupItem,
                        _ env: EditorEnvironment, at location: InteractionLocation? = nil) -> Bool {
        permits(&state, name, context(name, state, annotation: subject(item, state, env)), env, at: location)
    }

    /// An annotation component's question about one of the file's annotations: the same conditions, callbacks
    /// and events as for the session's markup, so a rule holds whoever made what it governs.
    static func permits(_ state: inout EditorState, _ name: InteractionComponentName, onAnnotation annotation: Annotation,
                        _ env: EditorEnvironment, at location: InteractionLocation? = nil) -> Bool {
        permits(&state, name, context(name, state, annotation: InteractionSubject(annotation)), env, at: location)
    }

    /// Where a key acting on an annotation of the file acts: its middle.
    static func middle(of annotation: Annotation) -> InteractionLocation {
        InteractionLocation(annotation.rect.center, in: .display)
    }

    /// Where a key acting on a markup acts: its middle.
    static func middle(of item: MarkupItem, _ env: EditorEnvironment) -> InteractionLocation {
        InteractionLocation(item.bounds(measuredBy: env.measurer).center, in: .display)
    }

    /// The conditions alone, ignoring `isEnabled`, at a location: `canActivate(at:in:)`. False when there is
    /// nothing there for the component to act on (no markup to select, no link to open).
    static func conditionsHold(_ name: InteractionComponentName, _ state: EditorState, _ location: InteractionLocation,
                               _ env: EditorEnvironment) -> Bool {
        guard let context = context(of: name, state, at: location, env) else { return false }
        return conditionsHold(name, context, state, location, env)
    }

    static func conditionsHold(_ name: InteractionComponentName, _ context: InteractionContext, _ state: EditorState,
                               _ location: InteractionLocation, _ env: EditorEnvironment) -> Bool {
        let conditions = env.interactions.store(name).conditions
        guard !conditions.isEmpty else { return true }
        let space = space(state, location.space, env)
        return conditions.allSatisfy { $0.holds(context, location.point, space) }
    }

    /// What the component would act on at a location: the markup there (or the selected one), the link there,
    /// the text block there; the page alone for the others.
    static func context(of name: InteractionComponentName, _ state: EditorState, at location: InteractionLocation,
                        _ env: EditorEnvironment) -> InteractionContext? {
        let point = space(state, location.space, env).convert(location.point, to: .display)
        switch name {
        case .selectAnnotation:
            if let item = markup(at: point, state, env) { return context(name, state, annotation: subject(item, state, env)) }
            return fileAnnotation(at: point, state).map { context(name, state, annotation: InteractionSubject($0)) }
        case .deselectAnnotation, .transformAnnotation, .editAnnotation:
            if let annotation = state.selectedFileAnnotation { return context(name, state, annotation: InteractionSubject(annotation)) }
            let item = state.selection.flatMap { state.markup.item($0) } ?? markup(at: point, state, env)
            if let item { return context(name, state, annotation: subject(item, state, env)) }
            return fileAnnotation(at: point, state).map { context(name, state, annotation: InteractionSubject($0)) }
        case .openLinkAnnotation:
            return link(near: point, state, env).map { context(name, state, link: $0) }
        case .smartZoom:
            return context(name, state, targetRect: smartZoomTarget(state, at: point))
        case .fastScroll, .toggleUserInterface, .selectText, .deselectText:
            return context(name, state)
        }
    }

    /// The link at a display point, else one the point's cell overlaps: as a click finds it, so a key at the
    /// cursor and a click on the same cell find the same link.
    static func link(near point: Point, _ state: EditorState, _ env: EditorEnvironment) -> PageLink? {
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let cell = viewport.cell(for: point)
        return link(at: point, cell: viewport.rect(forCellColumn: cell.column, row: cell.row), state)
    }

    /// The file's annotation at a display point of the current page that Tab could stop at, the topmost first.
    static func fileAnnotation(at point: Point, _ state: EditorState) -> Annotation? {
        selectableAnnotations(state).filter { $0.rect.contains(point) }.max { $0.order < $1.order }
    }

    /// The markup at a display point of the current page, the topmost first.
    static func markup(at point: Point, _ state: EditorState, _ env: EditorEnvironment) -> MarkupItem? {
        state.markup.items(onPage: state.pageIndex).last { $0.bounds(measuredBy: env.measurer).contains(point) }
    }

    private static func report(_ state: inout EditorState, _ name: InteractionComponentName, _ context: InteractionContext,
                               _ location: InteractionLocation, _ space: InteractionSpace, refusal: String?, _ env: EditorEnvironment) {
        guard env.interactions.reportsActivations else { return }
        let points = InteractionReport.Points(cells: space.convert(location.point, to: .cells),
                                              display: space.convert(location.point, to: .display),
                                              pdf: space.convert(location.point, to: .pdf))
        state.interaction.reports.append(InteractionReport(
            component: name, outcome: refusal == nil ? .activated : .refused, reason: refusal, via: state.interaction.via,
            time: state.now.iso8601, page: context.pageIndex + 1, space: location.space, point: points,
            annotation: context.annotation, link: context.link.map(InteractionReport.LinkSummary.init), targetRect: context.targetRect))
    }

    // MARK: The user's bindings

    /// The user's bindings on this key run first. A component that waits for a binding that took the key does
    /// not proceed: the key's command is skipped. Returns nil when the command should run.
    static func userBindings(_ state: inout EditorState, _ key: Key, _ context: KeymapContext,
                             _ env: EditorEnvironment) -> [EditorEffect]? {
        let bindings = env.interactions.bindings.filter { $0.keys.contains(key) && $0.contexts.contains(context) }
        guard !bindings.isEmpty else { return nil }
        var effects: [EditorEffect] = []
        var skipsCommand = false
        let waiting = InteractionComponentName.allCases.filter { $0.contains(key, in: context, keymaps: state.keymaps) }
        for binding in bindings {
            let location = currentLocation(state)
            let attempt = InteractionAttempt(key: key, context: context, location: location, state: state, environment: env)
            let requests: [InteractionRequest]
            switch binding.handler(attempt) {
            case .declined: continue
            case .handled: requests = []
            case .perform(let asked): requests = asked
            }
            if waiting.contains(where: { name in env.interactions.store(name).prerequisites.contains { $0 === binding } }) {
                skipsCommand = true
            }
            for request in requests { effects += perform(&state, request, env) }
        }
        if skipsCommand { return effects }
        // The key's own command runs here only when the bindings' requests produced effects to keep with it.
        return effects.isEmpty ? nil : effects + keyPressed(&state, key, env, bindingsDone: true)
    }

    // MARK: The try… verbs

    /// Performs a component's interaction at a location (the cursor when none), whatever its `isEnabled`, with
    /// its conditions and callbacks.
    static func perform(_ state: inout EditorState, _ request: InteractionRequest, _ env: EditorEnvironment) -> [EditorEffect] {
        let location = request.location ?? InteractionLocation(state.cursor, in: .display)
        let point = space(state, location.space, env).convert(location.point, to: .display)
        let before = state.interaction.trying
        state.interaction.trying = request.component
        defer { state.interaction.trying = before }
        switch request.component {
        case .selectAnnotation:
            if let item = markup(at: point, state, env) {
                if permits(&state, .selectAnnotation, on: item, env, at: location) { state.selection = item.id }
            } else if let annotation = fileAnnotation(at: point, state) {
                if permits(&state, .selectAnnotation, onAnnotation: annotation, env, at: location) { selectAnnotation(&state, annotation) }
            } else {
                state.message = "No markup or annotation there to select"
            }
        case .deselectAnnotation:
            if let annotation = state.selectedFileAnnotation {
                if permits(&state, .deselectAnnotation, onAnnotation: annotation, env, at: location) { state.interaction.selectedAnnotation = nil }
                return []
            }
            guard let id = state.selection, let item = state.markup.item(id) else { return [] }
            if permits(&state, .deselectAnnotation, on: item, env, at: location) {
                state.selection = nil
            }
        case .transformAnnotation:
            state.message = "A transform is a drag or a nudge: bind the move keys"
        case .editAnnotation:
            let fileTarget = state.selectedFileAnnotation
                ?? (state.selection == nil && markup(at: point, state, env) == nil ? fileAnnotation(at: point, state) : nil)
            if let annotation = fileTarget {
                state.selection = nil
                state.interaction.selectedAnnotation = annotation.id
                editFileAnnotationText(&state, annotation, env, at: location)
                return []
            }
            guard let item = state.selection.flatMap({ state.markup.item($0) }) ?? markup(at: point, state, env) else {
                state.message = "No markup there to edit"
                return []
            }
            state.selection = item.id
            startEditingSelection(&state, env, at: location)
        case .openLinkAnnotation:
            guard let link = link(near: point, state, env) else {
                state.message = "No link there"
                return []
            }
            return follow(&state, link, env, at: location)
        case .fastScroll:
            let cells = space(state, location.space, env).convert(location.point, to: .cells)
            let area = state.layout.pageArea
            let offset = cells.x < Double(area.column) + Double(area.width) / 2 ? -1 : 1
            guard (0..<state.document.pageCount).contains(state.pageIndex + offset) else {
                state.message = offset < 0 ? "This is the first page" : "This is the last page"
                return []
            }
            fastScroll(&state, by: offset, toBottom: false, env, at: location)
        case .smartZoom:
            smartZoom(&state, at: point, env, location: location)
        case .toggleUserInterface:
            toggleInterface(&state, env, at: location)
        case .selectText:
            state.cursor = Point(x: min(max(0, point.x), state.pageSize.width), y: min(max(0, point.y), state.pageSize.height))
            startTextSelection(&state, env, at: location)
        case .deselectText:
            deselectText(&state, env, at: location)
        }
        return []
    }

    /// A page turn by the wheel at a page's edge, a click near the page area's side or `try-fast-scroll`.
    static func fastScroll(_ state: inout EditorState, by offset: Int, toBottom: Bool, _ env: EditorEnvironment,
                           at location: InteractionLocation? = nil) {
        let target = state.pageIndex + offset
        guard target >= 0, target < state.document.pageCount else { return }
        guard permits(&state, .fastScroll, context(.fastScroll, state), env, at: location) else { return }
        turnPage(&state, by: offset, toBottom: toBottom, env)
    }

    /// Which fifth of the page area a screen column is in: -1 the left, +1 the right, nil the middle three.
    static func edgeFifth(_ state: EditorState, column: Int, row: Int) -> Int? {
        // The text view's words reach the page area's sides: a click there is on a word, not a page turn.
        guard !state.showsTextView else { return nil }
        let area = state.layout.pageArea
        guard area.contains(column: column, row: row), area.width >= 5 else { return nil }
        let fifth = area.width / 5
        if column < area.column + fifth { return -1 }
        if column >= area.column + area.width - fifth { return 1 }
        return nil
    }

    static func deselectText(_ state: inout EditorState, _ env: EditorEnvironment, at location: InteractionLocation? = nil) {
        guard state.interaction.textSelection != nil else { return }
        guard permits(&state, .deselectText, context(.deselectText, state), env, at: location) else { return }
        state.interaction.textSelection = nil
    }
}
