/// An annotation as the collaboration server keeps it: its element, who made it, how many times it changed, and
/// whether it was deleted (a deleted name stays, so that a change made elsewhere against it is refused as deleted
/// instead of bringing it back).
public struct SharedAnnotation: Sendable, Hashable, Codable {
    public var name: String
    public var pageIndex: Int
    public var author: String
    public var version: Int
    public var deleted: Bool
    public var inReplyTo: String?
    /// The annotation's XFDF element on one line; the last one it had for a deleted annotation.
    public var element: String

    public init(name: String, pageIndex: Int, author: String, version: Int, deleted: Bool, inReplyTo: String?, element: String) {
        self.name = name
        self.pageIndex = pageIndex
        self.author = author
        self.version = version
        self.deleted = deleted
        self.inReplyTo = inReplyTo
        self.element = element
    }
}

/// Why the server did not apply a change. Each names what the client must show; `current` is the annotation as the
/// server has it, when there is one, so the client can show both sides.
public enum ChangeRefusal: Sendable, Hashable, Error {
    case readOnly
    case invalid(String)
    case exists(SharedAnnotation)
    case deleted(SharedAnnotation)
    case unknown(String)
    case stale(SharedAnnotation)
    case notAuthor(SharedAnnotation)
    case needsBase
    case parentUnknown(String)
    case parentDeleted(SharedAnnotation)
    case reparented(SharedAnnotation)
    case documentFull(Int)
    case operationInUse(String)

    /// A short word for programs: the `code` of a refusal frame.
    public var code: String {
        switch self {
        case .readOnly: "read-only"
        case .invalid: "invalid"
        case .exists: "exists"
        case .deleted, .parentDeleted: "deleted"
        case .unknown, .parentUnknown: "unknown"
        case .stale: "stale"
        case .notAuthor: "not-author"
        case .needsBase: "needs-base"
        case .reparented: "reparented"
        case .documentFull: "document-full"
        case .operationInUse: "op-in-use"
        }
    }

    public var message: String {
        switch self {
        case .readOnly: "you may read this document but not change it"
        case .invalid(let why): "the change is not valid XFDF: \(why)"
        case .exists(let current): "an annotation named \"\(current.name)\" exists already (by \(current.author))"
        case .deleted(let current): "\"\(current.name)\" was deleted (at version \(current.version); it was \(current.author)'s)"
        case .unknown(let name): "the document has no annotation named \"\(name)\""
        case .stale(let current): "\"\(current.name)\" changed meanwhile: it is at version \(current.version), by \(current.author)"
        case .notAuthor(let current): "\"\(current.name)\" is \(current.author)'s: only its author may change or delete it"
        case .needsBase: "a modify or delete names the version it was made against (base)"
        case .parentUnknown(let name): "it answers \"\(name)\", which the document does not have"
        case .parentDeleted(let parent): "it answers \"\(parent.name)\", which was deleted"
        case .reparented(let current): "a reply keeps answering what it answered (\"\(current.inReplyTo ?? "")\")"
        case .documentFull(let most): "the document holds the most annotations the server keeps (\(most))"
        case .operationInUse(let op): "the operation id \(op) was used by another user: choose a new one (a UUID)"
        }
    }

    public var current: SharedAnnotation? {
        switch self {
        case .exists(let a), .deleted(let a), .stale(let a), .notAuthor(let a), .parentDeleted(let a), .reparented(let a): a
        default: nil
        }
    }
}

/// What the server does with a change it accepts: the annotations to write (the one changed, and for a deletion
/// every reply and state under it, deleted too) and the XFDF command the event carries.
public struct AcceptedChange: Sendable, Hashable {
    public var action: AnnotationChange.Action
    public var changed: [SharedAnnotation]
    public var xfdf: String
    /// How the count of live annotations in the document moves.
    public var liveDelta: Int
}

/// The rules of a shared document, apart from any storage: who may change what, which versions apply, what a
/// deletion takes with it. The server reads what they need (the annotation, what it answers, what answers it) in
/// the transaction that writes the result.
public enum SharedChangeRules {
    public struct Facts: Sendable {
        public var current: SharedAnnotation?
        /// What the change's annotation answers, when it answers something.
        public var parent: SharedAnnotation?
        /// Every annotation answering the changed one, directly or through others (for a deletion).
        public var descendants: [SharedAnnotation]
        public var liveCount: Int
        public var mostAnnotations: Int

        public init(current: SharedAnnotation?, parent: SharedAnnotation?, descendants: [SharedAnnotation], liveCount: Int,
                    mostAnnotations: Int) {
            self.current = current
            self.parent = parent
            self.descendants = descendants
            self.liveCount = liveCount
            self.mostAnnotations = mostAnnotations
        }
    }

    public static func decide(_ request: SharedChangeRequest, base: Int?, author: String, canWrite: Bool,
                              facts: Facts) -> Result<AcceptedChange, ChangeRefusal> {
        guard canWrite else { return .failure(.readOnly) }
        switch request.action {
        case .add:
            if let current = facts.current { return .failure(current.deleted ? .deleted(current) : .exists(current)) }
            guard facts.liveCount < facts.mostAnnotations else { return .failure(.documentFull(facts.mostAnnotations)) }
            if let refusal = parentRefusal(request, facts) { return .failure(refusal) }
            let added = SharedAnnotation(name: request.name, pageIndex: request.pageIndex, author: author, version: 1,
                                         deleted: false, inReplyTo: request.inReplyTo, element: request.element ?? "")
            return .success(AcceptedChange(action: .add, changed: [added], xfdf: SharedXFDF.command("add", elements: [added.element]),
                                           liveDelta: 1))
        case .modify:
            guard let current = facts.current else { return .failure(.unknown(request.name)) }
            if let refusal = writeRefusal(current, base: base, author: author) { return .failure(refusal) }
            guard current.inReplyTo == request.inReplyTo else { return .failure(.reparented(current)) }
            var changed = current
            changed.version += 1
            changed.pageIndex = request.pageIndex
            changed.element = request.element ?? ""
            return .success(AcceptedChange(action: .modify, changed: [changed],
                                           xfdf: SharedXFDF.command("modify", elements: [changed.element]), liveDelta: 0))
        case .delete:
            guard let current = facts.current else { return .failure(.unknown(request.name)) }
            if let refusal = writeRefusal(current, base: base, author: author) { return .failure(refusal) }
            let gone = ([current] + facts.descendants.filter { !$0.deleted }).map { annotation in
                var deleted = annotation
                deleted.version += 1
                deleted.deleted = true
                return deleted
            }
            return .success(AcceptedChange(action: .delete, changed: gone, xfdf: SharedXFDF.deletion(gone), liveDelta: -gone.count))
        }
    }

    private static func writeRefusal(_ current: SharedAnnotation, base: Int?, author: String) -> ChangeRefusal? {
        if current.deleted { return .deleted(current) }
        if current.author != author { return .notAuthor(current) }
        guard let base else { return .needsBase }
        if base != current.version { return .stale(current) }
        return nil
    }

    private static func parentRefusal(_ request: SharedChangeRequest, _ facts: Facts) -> ChangeRefusal? {
        guard let answered = request.inReplyTo else { return nil }
        guard let parent = facts.parent else { return .parentUnknown(answered) }
        return parent.deleted ? .parentDeleted(parent) : nil
    }
}

/// The XFDF the server sends: commands made of stored elements, and the whole set of a document.
public enum SharedXFDF {
    static let opening = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xfdf xmlns=\"\(XFDF.namespace)\" xml:space=\"preserve\">"

    public static func command(_ part: String, elements: [String]) -> String {
        opening + "<\(part)>" + elements.joined() + "</\(part)></xfdf>\n"
    }

    public static func deletion(_ annotations: [SharedAnnotation]) -> String {
        let ids = annotations.map { XMLTreeElement("id", attributes: [("page", String($0.pageIndex))], children: [.text($0.name)]).compact }
        return command("delete", elements: ids)
    }

    /// `<xfdf><annots>…</annots></xfdf>` of the given (live) annotations.
    public static func annotations(_ elements: [String]) -> String {
        command("annots", elements: elements)
    }
}
