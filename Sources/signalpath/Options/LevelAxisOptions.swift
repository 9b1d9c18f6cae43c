import ArgumentParser
import SignalPathKit

/// A command whose picture has a level axis that `--floor` and `--ceiling` bound: each says in
/// its own words what the levels are and where the axis ends by default.
protocol LevelAxisCommand: DataCommand {
    /// The levels' unit, as the options' value name: `db`, `lufs`.
    static var levelUnit: String { get }
    static var floorHelp: String { get }
    static var ceilingHelp: String { get }
    /// The floor when none is given; nil when it follows the levels drawn (loudness).
    static var defaultFloor: Double? { get }
}

/// The span of a picture's level axis: `--floor` and `--ceiling`, with the command's help.
struct LevelAxisOptions<Command: LevelAxisCommand>: ParsableArguments {
    // Levels are negative: `.unconditional` takes `-90` as the value, not as an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(Command.floorHelp, valueName: Command.levelUnit))
    var floor: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(Command.ceilingHelp, valueName: Command.levelUnit))
    var ceiling: Double?

    func validate() throws {
        let unit = Command.levelUnit == "db" ? "dB" : Command.levelUnit.uppercased()
        if let floor, !(floor.isFinite && (-400...200).contains(floor)) { throw ValidationError("--floor takes -400 to 200 \(unit).") }
        if let ceiling {
            // Without a floor of its own the loudness chart's follows the ceiling (40 LU below it).
            let lowest = floor ?? Command.defaultFloor ?? -.infinity
            guard ceiling.isFinite else { throw ValidationError("--ceiling takes a finite level, \(unit).") }
            guard ceiling > lowest else { throw ValidationError("--ceiling must be above --floor (\(UnitFormat.shortest(lowest)) \(unit)).") }
        }
    }

    /// The floor: given, or the command's default (for a command that has one).
    var floorLevel: Double {
        guard let level = floor ?? Command.defaultFloor else { preconditionFailure("\(Command.name)'s floor follows its levels") }
        return level
    }

    /// The options as `PlotOptions.refuseInapplicable` lists those a data format refuses.
    var given: [(String, Bool)] { [("--floor", floor != nil), ("--ceiling", ceiling != nil)] }
}
