// swift-tools-version: 6.1
import PackageDescription

// Dependencies point inward: front ends -> RedlineApp -> adapters -> RedlineCore/TerminalGrid.
// The pure targets (RedlineCore, TerminalGrid, Editor) import no C module, so an import that
// points the wrong way does not compile.
let package = Package(
    name: "Redline",
    products: [
        .executable(name: "redline", targets: ["redline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure core.
        .target(name: "RedlineCore"),
        .target(name: "TerminalGrid"),
        .target(name: "Editor", dependencies: ["RedlineCore", "TerminalGrid"]),

        // C libraries through pkg-config.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib",
                       providers: [.apt(["libpoppler-glib-dev", "libcairo2-dev"])]),
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        // zlib, which qpdf and poppler link anyway: for inflating untrusted metadata within a budget.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),

        // Thin adapters: one C module each, plus the core.
        .target(name: "PDFRendering", dependencies: ["RedlineCore", "CPoppler"]),
        .target(name: "PDFAssembly", dependencies: ["RedlineCore", "CQPDF", "CZlib"]),
        .target(name: "CellPictures", dependencies: ["TerminalGrid", "CChafa"]),
        .target(name: "NcursesTerminal", dependencies: ["TerminalGrid", "CNcurses"]),

        // Composition shared by every front end.
        .target(name: "RedlineApp", dependencies: [
            "RedlineCore", "TerminalGrid", "Editor",
            "PDFRendering", "PDFAssembly", "CellPictures", "NcursesTerminal",
            .product(name: "TOMLKit", package: "TOMLKit"),
        ]),

        // Front end.
        .executableTarget(name: "redline", dependencies: [
            "RedlineApp", "RedlineCore", "Editor", "TerminalGrid",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Tests.
        // Draws through the real NcursesScreen in tmux, for the colour-pair test (EndToEndTests).
        .executableTarget(name: "redline-screen-check", dependencies: ["NcursesTerminal", "TerminalGrid"],
                          path: "Tests/ScreenCheck"),
        .target(name: "TestSupport", dependencies: ["RedlineCore"], path: "Tests/TestSupport"),
        .testTarget(name: "RedlineCoreTests", dependencies: [
            "RedlineCore", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "TerminalGridTests", dependencies: ["TerminalGrid"]),
        .testTarget(name: "EditorTests", dependencies: ["Editor", "RedlineCore", "TerminalGrid"]),
        .testTarget(name: "AdapterTests", dependencies: [
            "RedlineApp", "RedlineCore", "PDFRendering", "PDFAssembly", "CellPictures", "TerminalGrid", "TestSupport",
            "NcursesTerminal", "Editor",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["RedlineCore", "TestSupport"]),
    ]
)
