@_spi(Reflection) import Swift

/// The stored properties of a class and its superclasses by offset, from the runtime's reflection metadata.
///
/// Schedule mode sees an unmodified type's stored state only as addresses; this turns
/// "offset 16 into an `UnsafeArray`" into `UnsafeArray.array` for traces and reports.
struct ClassLayout {
  private let typeName: String
  private let names: [Int: String]

  // `_EachFieldOptions.classType`, which Swift 6 will not read: a `static var` of the stdlib.
  private static let classType = _EachFieldOptions(rawValue: 1 << 0)

  init(_ type: AnyClass) {
    typeName = _typeName(type, qualified: false)
    var names: [Int: String] = [:]
    var current: AnyClass? = type
    while let layer = current {
      _ = _forEachField(of: layer, options: Self.classType) { name, offset, _, _ in
        if names[offset] == nil { names[offset] = String(cString: name) }
        return true
      }
      current = _getSuperclass(layer)
    }
    self.names = names
  }

  /// `Type.property` for the stored property at `offset`, or nil when none starts there.
  func property(at offset: Int) -> String? {
    names[offset].map { "\(typeName).\($0)" }
  }
}
