import Foundation

/// The frames of the collaboration protocol (docs/collaboration-protocol.md): JSON text, one object per WebSocket
/// message, its kind in `type`. Client and server both read and write them through these types.
public enum CollabFrame {
    /// What a client sends.
    public enum Client: Sendable, Hashable {
        /// Join a document; `since` is the last sequence number the client has seen. `batches`: the client takes
        /// `events` frames, several events in one message, which cost a busy document's members far less to receive.
        /// `presence`: the client takes `presence` frames, who is in the document.
        case hello(document: String, since: Int?, batches: Bool = false, presence: Bool = false)
        case change(operation: String, base: Int?, xfdf: String)
    }

    /// An annotation's state as the server keeps it, without its element.
    public struct Entry: Sendable, Hashable, Codable {
        public var name: String
        public var page: Int
        public var author: String
        public var version: Int
        public var deleted: Bool
        public var inReplyTo: String?

        public init(_ annotation: SharedAnnotation) {
            name = annotation.name
            page = annotation.pageIndex
            author = annotation.author
            version = annotation.version
            deleted = annotation.deleted
            inReplyTo = annotation.inReplyTo
        }
    }

    /// One entry of a document's log.
    public struct Event: Sendable, Hashable, Codable {
        public var seq: Int
        public var op: String
        public var author: String
        /// When the server committed it, ISO 8601 in UTC.
        public var time: String
        public var action: AnnotationChange.Action
        /// Every annotation the event changed, with its version after it: one, or for a deletion the annotation and
        /// every reply under it.
        public var annotations: [Entry]
        /// The XFDF command of the change: `<add>`, `<modify>` or `<delete>`.
        public var xfdf: String

        public init(seq: Int, op: String, author: String, time: String, action: AnnotationChange.Action,
                    annotations: [Entry], xfdf: String) {
            self.seq = seq
            self.op = op
            self.author = author
            self.time = time
            self.action = action
            self.annotations = annotations
            self.xfdf = xfdf
        }
    }

    /// What the server sends.
    public enum Server: Sendable, Hashable {
        /// The answer to `hello`. With `snapshot` true, `snapshot` frames follow with the whole current set, then
        /// the events after `head`; otherwise the events after the client's `since` follow.
        case welcome(document: String, user: String, access: String, head: Int, snapshot: Bool)
        /// Part of the current set: the live annotations as one XFDF `<annots>`, and the state of every annotation
        /// the part covers, deleted ones included. `last` ends it.
        case snapshot(head: Int, xfdf: String, annotations: [Entry], last: Bool)
        case event(Event)
        /// Consecutive events in one message, in `seq` order, to a client that asked for batches.
        case events([Event])
        /// A change was committed as event `seq`.
        case ack(op: String, seq: Int, name: String, version: Int)
        /// A change was not applied; `current` is the annotation as the server has it.
        case refused(op: String, code: String, message: String, current: Entry?, currentXFDF: String?)
        /// A frame the server could not take (malformed, too large, too many, unknown); the connection may close.
        case error(code: String, message: String)
        /// Who is in the document now (every user with a connection to it), to a client whose hello asked.
        case presence(users: [String])
    }
}

// MARK: JSON

public struct CollabFrameError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public var message: String
    public var description: String { message }

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

private struct ClientEnvelope: Codable {
    var type: String
    var document: String?
    var since: Int?
    var batches: Bool?
    var presence: Bool?
    var op: String?
    var base: Int?
    var xfdf: String?
}

private struct ServerEnvelope: Codable {
    var type: String
    var document: String?
    var user: String?
    var access: String?
    var head: Int?
    var snapshot: Bool?
    var xfdf: String?
    var annotations: [CollabFrame.Entry]?
    var last: Bool?
    var event: CollabFrame.Event?
    var events: [CollabFrame.Event]?
    var op: String?
    var seq: Int?
    var name: String?
    var version: Int?
    var code: String?
    var message: String?
    var current: CollabFrame.Entry?
    var currentXFDF: String?
    var users: [String]?
}

extension CollabFrame.Client {
    /// Longest operation id and document id taken: ids, not payloads.
    public static let longestID = 128

    public static func decode(_ text: String) throws(CollabFrameError) -> CollabFrame.Client {
        let envelope: ClientEnvelope
        do {
            envelope = try JSONDecoder().decode(ClientEnvelope.self, from: Data(text.utf8))
        } catch {
            throw CollabFrameError(code: "malformed", message: "not a JSON frame of this protocol: \(Self.reason(error, text))")
        }
        switch envelope.type {
        case "hello":
            guard let document = envelope.document, Self.isID(document) else {
                throw CollabFrameError(code: "malformed", message: "hello needs a document id (letters, digits, '-', '_', '.'; at most \(longestID))")
            }
            if let since = envelope.since, since < 0 { throw CollabFrameError(code: "malformed", message: "since is a sequence number from 0") }
            return .hello(document: document, since: envelope.since, batches: envelope.batches ?? false,
                          presence: envelope.presence ?? false)
        case "change":
            guard let op = envelope.op, Self.isID(op) else {
                throw CollabFrameError(code: "malformed", message: "change needs an op id (letters, digits, '-', '_', '.'; at most \(longestID))")
            }
            guard let xfdf = envelope.xfdf else { throw CollabFrameError(code: "malformed", message: "change needs its xfdf") }
            if let base = envelope.base, base < 0 { throw CollabFrameError(code: "malformed", message: "base is a version from 0") }
            return .change(operation: op, base: envelope.base, xfdf: xfdf)
        default:
            throw CollabFrameError(code: "unknown-type", message: "unknown frame type \"\(envelope.type.prefix(40))\"")
        }
    }

    public var json: String {
        switch self {
        case .hello(let document, let since, let batches, let presence):
            encodeJSON(ClientEnvelope(type: "hello", document: document, since: since, batches: batches ? true : nil,
                                      presence: presence ? true : nil))
        case .change(let op, let base, let xfdf): encodeJSON(ClientEnvelope(type: "change", op: op, base: base, xfdf: xfdf))
        }
    }

    public static func isDocumentID(_ text: String) -> Bool { isID(text) }

    static func isID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= longestID
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    private static func reason(_ error: any Error, _ text: String) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            // The decoder calls a number it cannot hold "not valid JSON"; the parser says what it met, and where.
            do {
                _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
                return "since and base are whole numbers from 0 to \(Int.max)"
            } catch {
                let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
                return detail.contains("not representable") ? "since and base are whole numbers from 0 to \(Int.max)" : detail
            }
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}

extension CollabFrame.Server {
    public var json: String {
        switch self {
        case .welcome(let document, let user, let access, let head, let snapshot):
            encodeJSON(ServerEnvelope(type: "welcome", document: document, user: user, access: access, head: head, snapshot: snapshot))
        case .snapshot(let head, let xfdf, let annotations, let last):
            encodeJSON(ServerEnvelope(type: "snapshot", head: head, xfdf: xfdf, annotations: annotations, last: last))
        case .event(let event):
            encodeJSON(ServerEnvelope(type: "event", event: event))
        case .events(let events):
            encodeJSON(ServerEnvelope(type: "events", events: events))
        case .ack(let op, let seq, let name, let version):
            encodeJSON(ServerEnvelope(type: "ack", op: op, seq: seq, name: name, version: version))
        case .refused(let op, let code, let message, let current, let currentXFDF):
            encodeJSON(ServerEnvelope(type: "refused", op: op, code: code, message: message, current: current, currentXFDF: currentXFDF))
        case .error(let code, let message):
            encodeJSON(ServerEnvelope(type: "error", code: code, message: message))
        case .presence(let users):
            encodeJSON(ServerEnvelope(type: "presence", users: users))
        }
    }

    public static func decode(_ text: String) throws(CollabFrameError) -> CollabFrame.Server {
        let e: ServerEnvelope
        do {
            e = try JSONDecoder().decode(ServerEnvelope.self, from: Data(text.utf8))
        } catch {
            throw CollabFrameError(code: "malformed", message: "not a frame of this protocol: \(error)")
        }
        func need<T>(_ value: T?, _ field: String) throws(CollabFrameError) -> T {
            guard let value else { throw CollabFrameError(code: "malformed", message: "\(e.type) frame without \(field)") }
            return value
        }
        switch e.type {
        case "welcome":
            return .welcome(document: try need(e.document, "document"), user: try need(e.user, "user"),
                            access: try need(e.access, "access"), head: try need(e.head, "head"), snapshot: e.snapshot ?? false)
        case "snapshot":
            return .snapshot(head: try need(e.head, "head"), xfdf: try need(e.xfdf, "xfdf"),
                             annotations: try need(e.annotations, "annotations"), last: e.last ?? true)
        case "event": return .event(try need(e.event, "event"))
        case "events": return .events(try need(e.events, "events"))
        case "ack": return .ack(op: try need(e.op, "op"), seq: try need(e.seq, "seq"), name: try need(e.name, "name"),
                                version: try need(e.version, "version"))
        case "refused": return .refused(op: try need(e.op, "op"), code: try need(e.code, "code"), message: try need(e.message, "message"),
                                        current: e.current, currentXFDF: e.currentXFDF)
        case "error": return .error(code: try need(e.code, "code"), message: try need(e.message, "message"))
        case "presence": return .presence(users: try need(e.users, "users"))
        default: throw CollabFrameError(code: "unknown-type", message: "unknown frame type \"\(e.type.prefix(40))\"")
        }
    }
}

private func encodeJSON<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every value here encodes: strings, numbers and arrays of them.
    return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
}
