import ArgumentParser

/// A mistyped command named for what it is, with the commands it is close to (as git's
/// "did you mean"): `ble scna` → `'scna' is not a ble command. Did you mean 'scan'?`.
/// ArgumentParser alone answers only "Unexpected argument 'scna'".
enum CommandSuggestion {
    /// The sentence for the first word of `arguments` that should name a subcommand and does
    /// not, walking down from `root`; `nil` when every such word names one (the parser then
    /// reports anything else). Options and what follows them are left to the parser.
    static func problem(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [name(of: root)]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            if word == "help" { return nil }
            guard let next = subcommands.first(where: { name(of: $0) == word }) else {
                let names = subcommands.map(name(of:))
                let close = suggestions(for: word, among: names)
                let command = path.joined(separator: " ")
                var sentence = "'\(word)' is not a \(command) command."
                if close.isEmpty {
                    sentence += " The commands are " + names.joined(separator: ", ") + "."
                } else {
                    sentence += " Did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
                }
                return sentence + " See '\(command) --help'."
            }
            command = next
            path.append(name(of: next))
        }
        return nil
    }

    /// The names within two edits (insert, delete, substitute, swap neighbours) of `word`, or
    /// that it begins, closest first.
    static func suggestions(for word: String, among names: [String]) -> [String] {
        let scored = names.compactMap { name -> (String, Int)? in
            let distance = editDistance(word.lowercased(), name)
            if distance <= min(2, max(1, name.count / 2)) { return (name, distance) }
            if word.count >= 2, name.hasPrefix(word.lowercased()) { return (name, 3) }
            return nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    /// The optimal string alignment distance between `a` and `b`: the Levenshtein distance
    /// with the swap of two neighbouring characters counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0 ... a.count { table[i][0] = i }
        for j in 0 ... b.count { table[0][j] = j }
        for i in 1 ... a.count {
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The name a command is typed as.
    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }
}
