import Foundation

/// A PDF's structure as pikepdf reads it (Tests/Tools/pdf_probe.py): an independent reader, so a save
/// is checked by something other than the code that wrote it.
public struct PDFStructure {
    public let json: [String: Any]

    public var pageCount: Int { json["pageCount"] as! Int }
    public var pages: [[String: Any]] { json["pages"] as! [[String: Any]] }
    public var outline: NSArray { json["outline"] as! NSArray }
    public var names: NSDictionary { json["names"] as! NSDictionary }
    public var info: NSDictionary { json["info"] as! NSDictionary }
    public var xmp: String? { json["xmp"] as? String }

    public func page(_ index: Int) -> NSDictionary { pages[index] as NSDictionary }
    public func contents(ofPage index: Int) -> [String] { pages[index]["contents"] as! [String] }
    /// A page field as a comparable JSON-like value.
    public func value(_ key: String, ofPage index: Int) -> NSObject? { pages[index][key] as? NSObject }
}

extension PDFStructure: @unchecked Sendable {}

public enum PDFProbe {
    public static func read(_ path: String, password: String? = nil) throws -> PDFStructure {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("pdf_probe.py"), path] + (password.map { [$0] } ?? []))
        guard result.status == 0 else { throw ToolFailure(tool: "pdf_probe.py", output: result.stderr) }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return PDFStructure(json: object as! [String: Any])
    }

    /// Writes the long test document: `pages` pages, outline, named destinations, links on page 1.
    public static func makeLongDocument(at path: String, pages: Int) throws {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_long_document.py"), path, String(pages)])
        guard result.status == 0 else { throw ToolFailure(tool: "make_long_document.py", output: result.stderr) }
    }
}

/// One annotation as pikepdf reads it (Tests/Tools/annotation_probe.py).
public struct ProbedAnnotation: Decodable, Sendable {
    public let page: Int
    public let object: String
    public let subtype: String?
    public let NM: String?
    public let T: String?
    public let Contents: String?
    public let CreationDate: String?
    public let M: String?
    public let F: Int
    public let RT: String?
    public let rect: [Double]
    public let digest: String
    public let State: String?
    public let StateType: String?
    public let StateModel: String?
    public let StateModelType: String?
    public let IRTObject: String?
    public let IRTName: String?
    public let popupParentIsThis: Bool?
    public let PIsPage: Bool
    /// Line endings, intent, border, justification, styles, rich text's words, a FreeText's /C, the popup's place:
    /// each as a string or numbers rounded to hundredths.
    public let look: [String: LookValue]

    public enum LookValue: Decodable, Sendable, Equatable, CustomStringConvertible {
        case text(String), texts([String]), numbers([Double]), number(Double), flag(Bool)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
            else if let number = try? container.decode(Double.self) { self = .number(number) }
            else if let text = try? container.decode(String.self) { self = .text(text) }
            else if let numbers = try? container.decode([Double].self) { self = .numbers(numbers) }
            else { self = .texts(try container.decode([String].self)) }
        }

        public var description: String {
            switch self {
            case .text(let text): text
            case .texts(let texts): texts.description
            case .numbers(let numbers): numbers.description
            case .number(let number): String(number)
            case .flag(let flag): String(flag)
            }
        }
    }
}

public enum AnnotationProbe {
    public static func read(_ path: String) throws -> [ProbedAnnotation] {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("annotation_probe.py"), path])
        guard result.status == 0 else { throw ToolFailure(tool: "annotation_probe.py", output: result.stderr) }
        return try JSONDecoder().decode([ProbedAnnotation].self, from: Data(result.stdout.utf8))
    }
}

/// A PDF's XMP as pikepdf reads it (Tests/Tools/xmp_probe.py).
public struct ProbedXMP: Decodable, Sendable {
    public struct PreviewItem: Decodable, Sendable, Equatable {
        public let PageIndex: String?
        public let UUID: String?
        public let parseType: String?
    }

    public struct PSPDFItem: Decodable, Sendable, Equatable {
        public struct Action: Decodable, Sendable, Equatable {
            public let actionType: String
            public let pageIndex: Int?
        }

        public let action: Action?
        public let name: String?
        public let uuid: String
    }

    public let hasMetadata: Bool
    public let properties: [String: String]
    public let preview: [PreviewItem]?
    public let pspdf: [PSPDFItem]?
    public let pdfa: String?
    public let recovered: Bool

    public static func read(_ path: String) throws -> ProbedXMP {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("xmp_probe.py"), path])
        guard result.status == 0 else { throw ToolFailure(tool: "xmp_probe.py", output: result.stderr) }
        return try JSONDecoder().decode(ProbedXMP.self, from: Data(result.stdout.utf8))
    }
}
