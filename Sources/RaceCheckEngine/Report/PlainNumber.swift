/// Numbers as a user would type them back: `2` rather than `2.0`, and `—` when there is no figure.
package enum PlainNumber {
  /// Whole numbers without a fraction, others as Swift prints them, infinity and NaN as `—`.
  package static func text(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// A duration as a number of seconds, as `--time` takes it.
  package static func text(_ duration: Duration) -> String {
    text(duration.seconds)
  }
}
