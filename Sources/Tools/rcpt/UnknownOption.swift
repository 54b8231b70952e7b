import ArgumentParser

/// The first option on a command line that its command does not take. ArgumentParser checks what a command requires
/// (`validate()`) before it reports the options left over, so a misspelt required option (`--validatr`) was reported
/// as the option missing ("give the validator"); rcpt names the misspelling instead.
enum UnknownOption {
    /// The first `--name` or `-x` in `arguments` (the program's name first) that the command they select does not
    /// list in its help, before any `--`, with that command; nil when every option is known.
    static func first(in arguments: [String], root: any ParsableCommand.Type) -> (
        name: String, command: any ParsableCommand.Type, path: String
    )? {
        var command = root
        var path = [root._commandName]
        var optionsBegan = false
        for argument in arguments.dropFirst() {
            if argument == "--" { return nil }
            // Before the command's own options and arguments, a word naming a subcommand selects it.
            if !optionsBegan, let sub = command.configuration.subcommands.first(where: { $0._commandName == argument })
            {
                command = sub
                path.append(argument)
                continue
            }
            optionsBegan = true
            // A value such as -5 or a lone - (standard input) is no option.
            guard argument.hasPrefix("-"), let second = argument.dropFirst().first, !second.isNumber else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if !options(of: command, root: root).contains(name) { return (name, command, path.joined(separator: " ")) }
        }
        return nil
    }

    /// Every option name the command's help lists (`--output`, `-o`), with `--help`, `-h` and `--version`.
    static func options(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> Set<String> {
        let help = root.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: Set<String> = ["--help", "-h", "--version", "-"]
        var word = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                word.append(character)
            } else {
                if word.hasPrefix("-"), word.count > 1 { names.insert(word) }
                word = ""
            }
        }
        return names
    }
}
