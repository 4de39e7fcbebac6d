import ArgumentParser
import Foundation
import FrugalHarness

/// `frugal doctor`: what can be measured here, and why not.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show what can be measured on this machine and why not.",
        discussion: "Tries each counter through PAPI, checks privileges, cgroups, PSI and loopback sockets. Always exits 0.")

    @Flag(help: "Print the survey as JSON.")
    var json = false

    func run() throws {
        let survey = EnvironmentSurvey.survey()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(survey), as: UTF8.self))
            return
        }
        let machine = survey.machine
        print("machine   \(machine.hostname) · Linux \(machine.kernel) · \(machine.cores) cores · \(machine.memoryBytes / 1_048_576) MiB\(machine.virtualMachine ? " · virtual machine" : "")")
        print("PAPI      \(survey.papi.version ?? "unavailable: \(survey.papi.initError ?? "?")")")
        for component in survey.papi.components {
            print("  component \(component.name): \(component.disabledReason.map { "disabled (\($0))" } ?? "active")")
        }
        print("events")
        for event in survey.papi.events {
            print("  \(event.available ? "✓" : "✗") \(event.name.padding(toLength: max(26, event.name.count), withPad: " ", startingAt: 0)) \(event.available ? "available" : "unavailable: \(event.reason ?? "?")")")
        }
        print("privileges uid \(survey.privileges.effectiveUserID), perf_event_paranoid \(survey.privileges.perfEventParanoid.map(String.init) ?? "?"): \(survey.privileges.note)")
        print("rusage    \(survey.rusageThread.detail)")
        print("cgroups   \(survey.cgroups.memoryController.map { "\($0) memory controller at \(survey.cgroups.path ?? "?"): " } ?? "")\(survey.cgroups.note)")
        if let check = survey.runContainment { print("runs      \(check.available ? "contained" : "not contained"): \(check.detail)") }
        if let check = survey.exitRecords { print("exits     \(check.available ? "available" : "unavailable"): \(check.detail)") }
        if let check = survey.measuredEnergy { print("energy    \(check.available ? "measured" : "not measured"): \(check.detail)") }
        print("PSI       \(survey.pressureStall.available ? "available" : "unavailable"): \(survey.pressureStall.detail)")
        print("loopback  \(survey.loopback.available ? "available" : "unavailable"): \(survey.loopback.detail)")
    }
}
