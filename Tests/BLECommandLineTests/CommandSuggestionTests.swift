@testable import BLECommandLine
import Testing

@Suite("A mistyped command is named, with the commands it is close to")
struct CommandSuggestionTests {
    @Test("A swapped, missing or extra letter in a command suggests the command")
    func topLevel() {
        #expect(CommandSuggestion.problem(in: ["scna"], root: BLECommand.self)
            == "'scna' is not a ble command. Did you mean 'scan'? See 'ble --help'.")
        #expect(CommandSuggestion.problem(in: ["advertize", "--name", "x"], root: BLECommand.self)
            == "'advertize' is not a ble command. Did you mean 'advertise'? See 'ble --help'.")
        #expect(CommandSuggestion.problem(in: ["bond", "list"], root: BLECommand.self)
            == "'bond' is not a ble command. Did you mean 'bonds'? See 'ble --help'.")
    }

    @Test("A mistyped subcommand is named with its parent command")
    func nested() {
        #expect(CommandSuggestion.problem(in: ["gatt", "dmup", "C0:11:22:33:44:55"], root: BLECommand.self)
            == "'dmup' is not a ble gatt command. Did you mean 'dump'? See 'ble gatt --help'.")
        #expect(CommandSuggestion.problem(in: ["sim", "rn", "walk"], root: BLECommand.self)?
            .hasPrefix("'rn' is not a ble sim command. Did you mean 'run'") == true)
    }

    @Test("A word close to no command lists the commands")
    func nothingClose() throws {
        let problem = try #require(CommandSuggestion.problem(in: ["teleport"], root: BLECommand.self))
        #expect(problem.hasPrefix("'teleport' is not a ble command. The commands are scan, advertise, "))
    }

    @Test("Commands, their arguments, options and help are left to the parser")
    func valid() {
        for arguments in [[], ["scan", "--seconds", "3"], ["gatt", "dump", "C0:11:22:33:44:55"], ["sim", "run", "walk"],
                          ["--help"], ["--version"], ["help", "scan"], ["serve", "thermometer.yaml"], ["bonds", "list"]] {
            #expect(CommandSuggestion.problem(in: arguments, root: BLECommand.self) == nil, "\(arguments)")
        }
    }

    @Test("The edit distance counts a swap of neighbours as one edit")
    func distance() {
        #expect(CommandSuggestion.editDistance("scna", "scan") == 1)
        #expect(CommandSuggestion.editDistance("scan", "scan") == 0)
        #expect(CommandSuggestion.editDistance("", "pair") == 4)
        #expect(CommandSuggestion.editDistance("sevre", "serve") == 1)
        #expect(CommandSuggestion.editDistance("kitten", "sitting") == 3)
    }
}
