import CQPDF
import Foundation
import RedlineCore

/// The catalog's XMP metadata stream and the trailer's /ID.
enum DocumentMetadata {
    static func read(in session: QPDFSession) -> Data? {
        let stream = session.key(qpdf_get_root(session.data), "/Metadata")
        guard session.isStream(stream) else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let code = qpdf_oh_get_stream_data(session.data, stream, qpdf_dl_generalized, nil, &buffer, &length)
        defer { free(buffer) }
        guard code & QPDF_ERRORS == 0, let buffer else {
            _ = try? session.check()
            return nil
        }
        return Data(bytes: buffer, count: length)
    }

    /// Replaces the catalog's metadata stream, or adds one. Written unfiltered, as PDF/A requires.
    static func write(_ packet: Data, in session: QPDFSession) throws {
        let t = session.data
        let root = qpdf_get_root(t)
        var stream = session.key(root, "/Metadata")
        if !session.isStream(stream) {
            stream = qpdf_make_indirect_object(t, qpdf_oh_new_stream(t))
            qpdf_oh_replace_key(t, root, "/Metadata", stream)
        }
        let bytes = [UInt8](packet)
        qpdf_oh_replace_stream_data(t, stream, bytes, bytes.count, qpdf_oh_new_null(t), qpdf_oh_new_null(t))
        let dictionary = qpdf_oh_get_dict(t, stream)
        qpdf_oh_replace_key(t, dictionary, "/Type", session.newName("Metadata"))
        qpdf_oh_replace_key(t, dictionary, "/Subtype", session.newName("XML"))
        try session.check()
    }

    /// A document without /ID gets `[<identity> <identity>]`; one with /ID keeps it (qpdf keeps the first half).
    static func giveIdentity(_ identity: String, in session: QPDFSession) throws {
        let trailer = qpdf_get_trailer(session.data)
        guard session.isNull(session.key(trailer, "/ID")),
              identity.count % 2 == 0, identity.allSatisfy(\.isHexDigit) else { return }
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
