// racecheck-probe: a child process that crashes or hangs on purpose, for the crash-capture tests.
//
// Usage: racecheck-probe <kind>, with RACECHECK_REPORT_FD (where records go) and, optionally,
// RACECHECK_FLIGHT_RECORDER_FD (a flight-recorder memfd) in the environment. It installs the
// crash handler, marks scenario 3, invocation 17 and operation 2 on slot 0 (the main thread),
// then does what <kind> says. Exit status 64 for bad usage, 70 when setup fails.
// `racecheck-probe record-and-die <file>` records a history into <file> and kills itself
// (RecorderProbe), for the recorder's crash test.

let arguments = CommandLine.arguments.dropFirst()
// The recorder's crash needs no crash handler: it runs alone, with the file to write.
if arguments.first == RecorderProbe.name {
  guard arguments.count == 2, let path = arguments.last else {
    Probe.fail("usage: racecheck-probe \(RecorderProbe.name) <file>", status: 64)
  }
  RecorderProbe.run(path: path)
}
guard arguments.count == 1, let name = arguments.first, let kind = Probe.Kind(rawValue: name) else {
  Probe.fail(
    "usage: racecheck-probe <\(Probe.Kind.allCases.map(\.rawValue).joined(separator: "|"))>",
    status: 64)
}
Probe.run(kind)
