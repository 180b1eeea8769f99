import CRaceCheckSupport
import Foundation

@_spi(Reflection) import Swift

/// The stored properties of a class and its superclasses by offset, from the runtime's reflection metadata.
///
/// Schedule mode sees an unmodified type's stored state only as addresses; this turns
/// "offset 16 into an `UnsafeArray`" into `UnsafeArray.array` for traces and reports. It also
/// finds the class's `Synchronization` fields: the `Mutex`es the scheduler models, and the
/// synchronization it cannot see.
struct ClassLayout {
  private let typeName: String
  private let names: [Int: String]
  /// Whether the class is an actor: only the actor's own jobs touch its stored state, one at a time.
  let isActor: Bool
  /// The class's `Synchronization.Mutex` properties: the offset of each one's lock word, and its name.
  let mutexes: [(offset: Int, property: String)]
  /// The properties whose synchronization the scheduler cannot see, each named with what it is.
  let unseenSynchronization: [String]

  // `_EachFieldOptions.classType`, which Swift 6 will not read: a `static var` of the stdlib.
  private static let classType = _EachFieldOptions(rawValue: 1 << 0)

  init(_ type: AnyClass) {
    typeName = _typeName(type, qualified: false)
    var names: [Int: String] = [:]
    var mutexes: [(offset: Int, property: String)] = []
    var unseen: [String] = []
    var current: AnyClass? = type
    while let layer = current {
      _ = _forEachField(of: layer, options: Self.classType) { cName, offset, fieldType, _ in
        let name = String(cString: cName)
        if names[offset] == nil { names[offset] = name }
        // Reflection shows a noncopyable field's type as `()`: its symbols tell what it is.
        guard fieldType == Void.self else { return true }
        let property = "\(_typeName(layer, qualified: false)).\(name)"
        switch NoncopyableField(named: name, of: layer) {
        case .void: break
        // The lock word is the Mutex's first field (`handle.storage`).
        case .mutex: mutexes.append((offset, property))
        case .atomic: unseen.append("\(property) (an Atomic)")
        case .unknown: unseen.append("\(property) (a noncopyable value racecheck cannot look into)")
        }
        return true
      }
      current = _getSuperclass(layer)
    }
    self.names = names
    self.mutexes = mutexes
    unseenSynchronization = unseen
    isActor = Self.isActor(type)
  }

  /// Reads the actor flag of the class's nominal type descriptor.
  ///
  /// Swift class metadata without Objective-C interoperability holds the kind, the
  /// superclass, four words of sizes and flags, and then, 40 bytes in, the descriptor,
  /// whose 32-bit flags keep the kind-specific flags in their upper half: bit 7 of those
  /// (`Class_IsActor`) marks an actor. An actor's isolation is the runtime's own atomics,
  /// which the scheduler cannot see, so its state would look unordered without this.
  private static func isActor(_ type: AnyClass) -> Bool {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard let descriptor = metadata.load(fromByteOffset: 40, as: UnsafeRawPointer?.self) else {
      return false
    }
    let flags = descriptor.load(as: UInt32.self)
    let classKind: UInt32 = 16
    return flags & 0x1F == classKind && flags & (1 << 23) != 0
  }

  /// `Type.property` for the stored property at `offset`, or nil when none starts there.
  func property(at offset: Int) -> String? {
    names[offset].map { "\(typeName).\($0)" }
  }
}

/// What a class's stored property is when reflection shows its type as `()`: a real `Void`, or a noncopyable value.
///
/// The compiler erases a noncopyable field's type in the reflection metadata, so that older
/// runtimes never copy one; the executable's symbol table still names it, in the demangled
/// names of the property's accessors, initial value and field offset
/// (`Module.Class.name.getter : Synchronization.Mutex<Int>`).
private enum NoncopyableField {
  case void
  case mutex
  case atomic
  /// Another noncopyable type, or one the symbol table does not name (a stripped executable).
  case unknown

  /// The demangled symbols of properties whose type is `Void` or from `Synchronization`, read once; nil when the executable has no symbol table.
  private static let symbols: [String]? = {
    final class Found { var names: [String] = [] }
    let found = Found()
    var counts: [Int32] = []
    for needle in ["15Synchronization", "ytvp"] {
      counts.append(
        rc_executable_symbols_containing(
          needle,
          { name, context in
            guard let name, let context else { return }
            Unmanaged<Found>.fromOpaque(context).takeUnretainedValue().names.append(
              String(cString: name))
          }, Unmanaged.passUnretained(found).toOpaque()))
    }
    return counts.contains { $0 < 0 } ? nil : found.names
  }()

  init(named name: String, of type: AnyClass) {
    guard let symbols = Self.symbols else {
      self = .unknown
      return
    }
    let owner = _typeName(type, qualified: true)
    // `Owner.name : T`, `Owner.name.getter : T`, or, for a private property, `Owner.(name in _…)`.
    let spellings = ["\(owner).\(name) : ", "\(owner).\(name).", "\(owner).(\(name) in "]
    let kinds: [(typePrefix: String, field: NoncopyableField)] = [
      ("()", .void), ("Synchronization.Mutex<", .mutex), ("Synchronization.Atomic<", .atomic),
    ]
    for symbol in symbols where spellings.contains(where: { symbol.contains($0) }) {
      guard let separator = symbol.range(of: " : ", options: .backwards) else { continue }
      let fieldType = symbol[separator.upperBound...]
      if let kind = kinds.first(where: { fieldType.hasPrefix($0.typePrefix) }) {
        self = kind.field
        return
      }
    }
    self = .unknown
  }
}
