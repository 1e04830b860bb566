import ArgumentParser

/// The option every command that opens a document shares.
struct PasswordOption: ParsableArguments {
    @Option(name: .long, help: "The password of an encrypted document.")
    var password: String?
}
