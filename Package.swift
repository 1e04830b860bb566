// swift-tools-version: 6.1
import PackageDescription

// Dependencies point inward: front ends -> TerminalFrontEnd -> RedlineKit -> adapters -> RedlineCore/TerminalGrid.
// The pure targets (RedlineCore, TerminalGrid, Editor) import no C module and no XML parser. `make test` builds
// with SwiftPM's explicit target dependency import check as an error, so an import of a target not declared
// below fails the build.
let package = Package(
    name: "Redline",
    products: [
        .executable(name: "redline", targets: ["redline"]),
        // The editor for Swift code that embeds it: `RedlineEditor` and its `interactions` (docs/interactions.md).
        .library(name: "RedlineEditor", targets: ["TerminalFrontEnd", "Editor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The collaboration server and its client (docs/collaboration-protocol.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        // Pure core.
        .target(name: "RedlineCore"),
        .target(name: "TerminalGrid"),
        .target(name: "Editor", dependencies: ["RedlineCore", "TerminalGrid"]),

        // C libraries through pkg-config.
        // poppler-glib's and cairo's declarations; cairo is linked, poppler-glib loaded when first needed (below).
        .systemLibrary(name: "CPoppler", pkgConfig: "cairo-ft", providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CGObject", pkgConfig: "gobject-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        // zlib, which qpdf and poppler link anyway: for inflating untrusted metadata within a budget.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),

        // poppler-glib's functions, loaded with the first page read: a command that renders nothing does not load
        // poppler's libraries (7 ms of a 22 ms start) at its start.
        .target(name: "CPopplerLoader", dependencies: ["CPoppler", "CGObject"]),

        // Thin adapters: one C module each, plus the core.
        .target(name: "PDFRendering", dependencies: ["RedlineCore", "CPoppler", "CGObject", "CPopplerLoader"]),
        // qpdf's cross-reference, which only its C++ API gives: where each annotation's bytes are, to read them without
        // qpdf keeping a parsed copy of each (6 KB and 36 µs an annotation).
        .target(name: "QPDFCrossReference", dependencies: ["CQPDF"]),
        .target(name: "PDFAssembly", dependencies: ["RedlineCore", "CQPDF", "CZlib", "QPDFCrossReference"]),
        // XMP packets through libxml2 (FoundationXML): bookmarks as Apple Preview and PSPDFKit store them.
        .target(name: "XMPMetadata", dependencies: ["RedlineCore"]),
        // Pictures for the terminal: chafa's cells and sixels, and zlib for kitty's compressed images.
        .target(name: "CellPictures", dependencies: ["TerminalGrid", "CChafa", "CZlib"]),
        .target(name: "NcursesTerminal", dependencies: ["TerminalGrid", "CNcurses"]),

        // The headless kit: opening, saving, applying markup, annotations, bookmarks, journals, configuration.
        // What a server links: no ncurses, no chafa.
        .target(name: "RedlineKit", dependencies: [
            "RedlineCore", "TerminalGrid", "PDFRendering", "PDFAssembly", "XMPMetadata",
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        // The terminal front end: the editor session, page pictures, the screen.
        .target(name: "TerminalFrontEnd", dependencies: [
            "RedlineKit", "RedlineCore", "TerminalGrid", "Editor", "CellPictures", "NcursesTerminal",
        ]),

        // The collaboration server: the core, its database and its network libraries; no terminal, no PDF library.
        .target(name: "CollabServer", dependencies: [
            "RedlineCore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The client side of the protocol, for `redline collab` (and later the editor).
        .target(name: "CollabClient", dependencies: [
            "RedlineCore",
            .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            // HTTP for the shared PDF; Foundation's URLSession would load libcurl and 18 more libraries at every start.
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Front ends, and what their command lines share (exit codes, checked output, common options).
        .target(name: "CommandLineSupport", dependencies: [
            "RedlineKit", "RedlineCore", "TerminalGrid",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "redline", dependencies: [
            "RedlineKit", "TerminalFrontEnd", "RedlineCore", "Editor", "TerminalGrid", "CommandLineSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `redline collab` runs this program: the network and TLS libraries stay out of every other command's start.
        .executableTarget(name: "redline-collab", dependencies: [
            "CollabClient", "CommandLineSupport", "RedlineKit", "RedlineCore", "TerminalGrid",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `redline serve` runs this program: a server process that loads no terminal or rendering library.
        .executableTarget(name: "redline-server", dependencies: [
            "CollabServer", "RedlineCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The interaction components from Swift: the seed's four examples and a smart-zoom log.
        .executableTarget(name: "redline-interactions-example", dependencies: ["TerminalFrontEnd", "Editor", "RedlineCore"],
                          path: "Examples/InteractionExamples"),

        // Tests.
        // Draws through the real NcursesScreen in tmux, for the colour-pair test (EndToEndTests).
        .executableTarget(name: "redline-screen-check", dependencies: ["NcursesTerminal", "TerminalGrid"],
                          path: "Tests/ScreenCheck"),
        .target(name: "TestSupport", dependencies: ["RedlineCore"], path: "Tests/TestSupport"),
        .testTarget(name: "RedlineCoreTests", dependencies: [
            "RedlineCore", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "XMPMetadataTests", dependencies: ["XMPMetadata", "RedlineCore"]),
        .testTarget(name: "TerminalGridTests", dependencies: ["TerminalGrid", "TestSupport"]),
        .testTarget(name: "EditorTests", dependencies: [
            "Editor", "RedlineCore", "TerminalGrid", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "AdapterTests", dependencies: [
            "CZlib", "CQPDF",
            "RedlineKit", "TerminalFrontEnd", "RedlineCore", "PDFRendering", "PDFAssembly", "XMPMetadata", "CellPictures",
            "TerminalGrid", "TestSupport", "NcursesTerminal", "Editor",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["RedlineCore", "TestSupport"]),
        // The server's store and group commit on SQLite and a throwaway PostgreSQL.
        .testTarget(name: "CollabServerTests", dependencies: [
            "CollabServer", "CollabClient", "RedlineCore", "TestSupport", .product(name: "Logging", package: "swift-log"),
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
    ],
    cxxLanguageStandard: .cxx17
)
