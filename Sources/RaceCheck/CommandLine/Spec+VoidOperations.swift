/// A checkable that can name its operations that return nothing, so that replay tables leave their results out.
///
/// `ReplayReport` does not carry this list (a `CheckReport` does), and a history cannot tell a
/// void operation from one that returned `nil`, so the replay command asks the spec itself.
protocol ListsVoidOperations {
  /// The names of the operations that return nothing.
  var voidOperationNames: Set<String> { get }
}

extension Spec: ListsVoidOperations {
  var voidOperationNames: Set<String> {
    Set(operations.filter { !$0.returnsValue }.map(\.name))
  }
}
