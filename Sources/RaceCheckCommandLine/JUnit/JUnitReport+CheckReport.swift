import RaceCheckEngine

extension JUnitReport.TestCase {
  /// The case of a check: a pass passes, a found failure fails, and a check that reached no verdict is an error.
  init(_ report: CheckReport, name: String, className: String) {
    self.name = name
    self.className = className
    time = report.elapsed
    switch report.outcome {
    case .passed:
      outcome = .passed
      output = report.description
    case .failed(let failure):
      outcome = .failed(
        message: "\(failure.kind.rawValue): \(failure.diagnosis.pattern.rawValue)",
        type: failure.diagnosis.pattern.rawValue, details: report.description)
    case .inconclusive(let reason):
      outcome = .error(
        message: "inconclusive: \(reason)", type: "inconclusive", details: report.description)
    case .specError(let error):
      outcome = .error(
        message: "the spec is broken: \(error.message)", type: "spec-error",
        details: report.description)
    case .killedFromOutside:
      outcome = .error(
        message: "no verdict: the worker child was killed from outside",
        type: "killed-from-outside",
        details: report.description)
    case .internalFault(let fault):
      outcome = .error(
        message: "no verdict: \(fault.summary)", type: "internal-error", details: report.description
      )
    }
  }
}
