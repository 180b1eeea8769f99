/// What a register's `read` that returned nil means: that the register held nil, or, as Knossos has it, nothing known.
///
/// Knossos's `register` and `cas-register` models let a read whose value is nil match
/// any state ("we don't know what the read was"); racecheck compares it with the state
/// unless told otherwise:
///
/// ```swift
/// var checker = HistoryChecker()
/// checker.nilReads = .unknown  // Knossos's reading
/// ```
package enum NilReadMeaning: String, Sendable, Hashable, CaseIterable {
  /// The read returned nil because the register held nil (never written, or nil written): it is compared with the state like any other result.
  case value
  /// The read's value is not known: it fits every state, as in Knossos's models.
  case unknown

  /// The models whose `read` this applies to: `register` and `cas-register`.
  package static let models: [String] = [RegisterModel.name, CASRegisterModel.name]

  /// Whether `step` is a register's `read`.
  static func isRegisterRead<Step>(_ step: Step) -> Bool {
    (step as? RegisterModel.Step) == .read || (step as? CASRegisterModel.Step) == .read
  }
}

extension TypedHistory {
  /// Gives every `read` of a register that completed with nil an unknown outcome, and returns their indexes.
  ///
  /// A read that fits every state and changes nothing constrains no order, so, like an
  /// `info` read, it is left out of the search; ``Witness`` puts it back into the order found.
  mutating func readingNilAsUnknown() -> [Int] {
    var unknown: [Int] = []
    for index in 0..<count
    where statuses[index] == .ok && results[index].isNull
      && NilReadMeaning.isRegisterRead(steps[index])
    {
      statuses[index] = .info
      unknown.append(index)
    }
    return unknown
  }
}
