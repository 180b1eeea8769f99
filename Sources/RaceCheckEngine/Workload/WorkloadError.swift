/// Why a workload could not run: its spec or settings do not fit one, or a fault target could not be reached.
///
/// ```
/// workload 'etcd': operation 'increment' is not of the kv model's vocabulary (get, put, append)
/// ```
public struct WorkloadError: Error, Hashable, Sendable, CustomStringConvertible {
  enum Problem: Hashable, Sendable {
    case noClients(Int)
    case emptyLimit(WorkloadLimit)
    case notPositive(what: String, Duration)
    case noOperations
    case badWeight(operation: String, Int)
    case notVocabulary(operation: String, model: String, vocabulary: [String])
    case onMainThread(operation: String)
    case noFaultTargets
    case noSuchFaultTarget(String, known: [String])
    case cannotRestart(String)
  }

  let problem: Problem
  /// The workload's name: its spec's.
  public let workload: String

  init(_ problem: Problem, workload: String) {
    self.problem = problem
    self.workload = workload
  }

  /// The error as the command line prints it: the workload's name, then what is wrong.
  public var description: String {
    let reason: String
    switch problem {
    case .noClients(let count): reason = "it needs at least 1 client, not \(count)"
    case .emptyLimit(.duration(let duration)):
      reason = "its duration must be positive, not \(duration)"
    case .emptyLimit(.operations(let count)):
      reason = "its operation count must be at least 1, not \(count)"
    case .notPositive(let what, let duration): reason = "\(what) must be positive, not \(duration)"
    case .noOperations: reason = "its spec has no operations"
    case .badWeight(let operation, let weight):
      reason =
        spec(operation)
        + " has weight \(weight): a weight names one of the spec's operations and is at least 1"
    case .notVocabulary(let operation, let model, let vocabulary):
      reason =
        "operation '\(operation)' is not of the \(model) model's vocabulary (\(vocabulary.joined(separator: ", "))): a workload's history is checked with the built-in model"
    case .onMainThread(let operation):
      reason = "operation '\(operation)' runs on the main thread, which a workload's clients do not"
    case .noFaultTargets: reason = "its nemesis has no processes to inject faults into"
    case .noSuchFaultTarget(let name, let known):
      reason =
        "its nemesis names '\(name)', not one of its targets (\(known.joined(separator: ", ")))"
    case .cannotRestart(let name):
      reason =
        "its nemesis kills '\(name)', which has no way to start again (give the target a restart)"
    }
    return "workload '\(workload)': \(reason)"
  }

  private func spec(_ operation: String) -> String { "operation '\(operation)'" }
}
