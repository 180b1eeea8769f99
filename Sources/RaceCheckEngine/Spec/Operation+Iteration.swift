extension Operation
where
  Subject: Sequence & SendableMetatype, Subject.Element: ValueConvertible, Model: HistoryModel
{
  /// The model's `snapshot`, checked by iterating the subject: its elements, in the order it yields them, against the model's list.
  ///
  /// For ``ArrayModel``, ``QueueModel`` and ``StackModel`` the order counts (a stack's list
  /// is bottom first, so a stack that iterates from the top reverses it in its own
  /// operation). A set has no order: for ``SetModel`` the elements are sorted as the
  /// model sorts its members. The iteration is made the way the subject's users make it,
  /// one `next()` after another: a subject whose iterator does not read a copy taken
  /// under its lock yields elements of different states when writers run meanwhile.
  ///
  /// ```swift
  /// Spec("SafeArray", make: SafeArray<Int>.init, model: ArrayModel()) {
  ///   Operation("append", .int(in: 0...3)) { (array: SafeArray<Int>, x: Int) in array.append(x) }
  ///   Operation.iteration()
  /// }
  /// ```
  ///
  /// - Returns: An operation named `snapshot` that records the iterated elements.
  public static func iteration() -> Operation {
    let sortsElements = Model.self == SetModel.self
    var operation = Operation("snapshot") { (subject: Subject) -> [Value] in
      let elements = subject.map(\.historyValue)
      return sortsElements ? elements.sorted(by: Value.sortsBefore) : elements
    }
    // An iteration is a call per element, so a failure of it says nothing of one call's atomicity.
    operation.mapsToVocabulary = false
    return operation
  }
}
