import CQPDF
import Foundation
import RedlineCore

/// The catalog's XMP metadata stream and the trailer's /ID.
enum DocumentMetadata {
    enum Packet {
        case none
        case packet(Data)
        /// There is a metadata stream, but it cannot be read within the budget: it must then never be rewritten.
        case unreadable(String)
    }

    /// Filtered streams other than plain FlateDecode are decoded by qpdf, which has no budget: only small ones.
    static let largestOtherwiseFiltered = 4096

    /// The catalog's XMP packet, decoded within a budget (a stream of a few hundred bytes can inflate to
    /// gigabytes): at most `PDFLimits.largestXMPPacket`, plus a byte to show when there is more.
    static func read(in session: QPDFSession) -> Packet {
        let stream = session.key(qpdf_get_root(session.data), "/Metadata")
        guard session.isStream(stream) else { return .none }
        let dictionary = qpdf_oh_get_dict(session.data, stream)
        let filter = session.key(dictionary, "/Filter")
        let filters = session.isArray(filter) ? session.arrayItems(filter).compactMap(session.name) : session.name(filter).map { [$0] } ?? []
        let parameters = !session.isNull(session.key(dictionary, "/DecodeParms"))
        guard let raw = session.streamData(stream, level: qpdf_dl_none) else { return .unreadable("its stream cannot be read") }
        let limit = PDFLimits.largestXMPPacket
        switch (filters, parameters) {
        case ([], _):
            return .packet(Data(raw.prefix(limit + 1)))
        case (["FlateDecode"], false):
            guard let inflated = BoundedInflate.inflate(raw, limit: limit) else { return .unreadable("its compressed data is damaged") }
            return .packet(inflated)
        default:
            guard raw.count <= largestOtherwiseFiltered, let decoded = session.streamData(stream, level: qpdf_dl_specialized) else {
                return .unreadable("it is encoded with \(filters.joined(separator: ", ")), which Redline decodes only for small packets")
            }
            return .packet(Data(decoded.prefix(limit + 1)))
        }
    }

    /// qpdf writes any stream of /Type /Metadata decoded, whatever it is told: a metadata stream that does
    /// not decode within the budget (a compression bomb) would grow the copy by gigabytes. Such a stream stops
    /// calling itself /Metadata in the copy, so its bytes are copied as they are stored; the catalog still
    /// names it as the document's metadata.
    static func keepOversizedStreamAsStored(in session: QPDFSession) {
        let stream = session.key(qpdf_get_root(session.data), "/Metadata")
        guard session.isStream(stream) else { return }
        let dictionary = qpdf_oh_get_dict(session.data, stream)
        guard !session.isNull(session.key(dictionary, "/Filter")) else { return }
        switch read(in: session) {
        case .packet(let packet) where packet.count <= PDFLimits.largestXMPPacket: return
        case .none: return
        default: qpdf_oh_remove_key(session.data, dictionary, "/Type")
        }
    }

    /// Replaces the catalog's metadata stream, or adds one. Written unfiltered, as PDF/A requires.
    static func write(_ packet: Data, in session: QPDFSession) throws {
        let t = session.data
        let root = qpdf_get_root(t)
        var stream = session.key(root, "/Metadata")
        let bytes = [UInt8](packet)
        if !session.isStream(stream), session.newStreamData(session.objectID(stream)) == nil {
            stream = try session.newStream(holding: bytes)
            qpdf_oh_replace_key(t, root, "/Metadata", stream)
        } else {
            session.replacedStreamData.insert(session.objectID(stream))
            try session.replaceData(of: stream, with: bytes)
        }
        let dictionary = session.streamDictionary(stream)
        qpdf_oh_replace_key(t, dictionary, "/Type", session.newName("Metadata"))
        qpdf_oh_replace_key(t, dictionary, "/Subtype", session.newName("XML"))
        try session.check()
    }

    /// A document without a usable /ID (none, empty strings, not an array) gets `[<identity> <identity>]`, the
    /// identity its sidecar bookmarks are kept under; one with /ID keeps it (qpdf keeps the first half).
    static func giveIdentity(_ identity: String, in session: QPDFSession) throws {
        let trailer = qpdf_get_trailer(session.data)
        guard permanentID(in: session) == nil, identity.count % 2 == 0, identity.allSatisfy(\.isHexDigit) else { return }
        qpdf_oh_replace_key(session.data, trailer, "/ID", qpdf_oh_parse(session.data, "[<\(identity)> <\(identity)>]"))
        try session.check()
    }

    static func permanentID(in session: QPDFSession) -> String? {
        let ids = session.arrayItems(session.key(qpdf_get_trailer(session.data), "/ID"))
        guard let first = ids.first, qpdf_oh_is_string(session.data, first) != 0 else { return nil }
        var length = 0
        guard let bytes = qpdf_oh_get_binary_string_value(session.data, first, &length), length > 0 else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: length).map { String(format: "%02x", $0) }.joined()
    }
}
