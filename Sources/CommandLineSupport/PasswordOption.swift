import ArgumentParser

/// The option every command that opens a document shares.
public struct PasswordOption: ParsableArguments {
    @Option(name: .long, help: "The password of an encrypted document.")
    public var password: String?

    public init() {}
}
