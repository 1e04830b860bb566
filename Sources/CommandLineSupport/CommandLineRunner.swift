import ArgumentParser

/// Parses and runs a root command with Redline's exit codes (0 done, 1 bad usage or markup, 2 cannot open, 3 cannot
/// write): the same for `redline` and the programs its commands run (`redline collab`).
public enum CommandLineRunner {
    public static func main<Root: ParsableCommand>(_ root: Root.Type) {
        do {
            var command = try root.parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            printError(failure.message)
            exitProcess(failure.code)
        } catch {
            let code = root.exitCode(for: error)
            if code == .success {
                // --help and --version are output like any other: a full disk is exit 3, not 0 with nothing written.
                do {
                    try printOutput(root.fullMessage(for: error))
                } catch let failure as CommandFailure {
                    printError(failure.message)
                    exitProcess(failure.code)
                } catch {
                    exitProcess(ExitStatus.cannotWrite)
                }
                exitProcess(0)
            }
            // One line, like every other error: the usage is one --help away.
            let firstLine = root.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let name = root.configuration.commandName ?? "redline"
            printError(firstLine.replacingOccurrences(of: "Error: ", with: "") + " (\(name) --help lists the commands and options)")
            exitProcess(ExitStatus.usage)
        }
    }
}
