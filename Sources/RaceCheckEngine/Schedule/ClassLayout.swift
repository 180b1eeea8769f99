import CRaceCheckSupport
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
      // Only the executable's symbol table is read: a library's class keeps its fields unnamed.
      // racecheck's own classes synchronize racecheck, which no verdict is about.
      let inExecutable =
        Self.descriptor(of: layer).map(rc_in_executable) ?? false
        && !Self.isRaceCheck(layer)
      _ = _forEachField(of: layer, options: Self.classType) { cName, offset, fieldType, _ in
        let name = String(cString: cName)
        if names[offset] == nil { names[offset] = name }
        // Reflection shows a noncopyable field's type as `()`: its symbols tell what it is.
        guard fieldType == Void.self, inExecutable else { return true }
        let property = "\(_typeName(layer, qualified: false)).\(name)"
        switch SynchronizationSymbols.executable?.field(named: name, of: layer) ?? .unknown {
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
    guard let descriptor = descriptor(of: type) else { return false }
    let flags = descriptor.load(as: UInt32.self)
    let classKind: UInt32 = 16
    return flags & 0x1F == classKind && flags & (1 << 23) != 0
  }

  /// The class whose instances `metadata` describes, or nil when it describes a heap object of another kind.
  ///
  /// `swift_allocObject` allocates more than class instances: a closure's context, a
  /// `var` captured by an escaping closure (its box), an error's box and the runtime's
  /// tasks have heap metadata of their own kinds, with none of a class's fields. Their
  /// metadata's first word is the kind, which is 0 (`MetadataKind::Class`) only for a Swift
  /// class on a platform without Objective-C interoperability; every other kind racecheck
  /// may meet there is a small non-zero number (0x400 and up for heap objects of no type).
  static func instanceClass(of metadata: UnsafeRawPointer) -> AnyClass? {
    let classKind: UInt = 0
    guard metadata.load(as: UInt.self) == classKind else { return nil }
    return unsafeBitCast(metadata, to: AnyClass.self)
  }

  /// The class's nominal type descriptor, which lies in the image that defines the class, even for a generic one.
  private static func descriptor(of type: AnyClass) -> UnsafeRawPointer? {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(
      fromByteOffset: 40, as: UnsafeRawPointer?.self)
  }

  /// Whether `type` is one of racecheck's own classes, which code under test's calls may allocate.
  private static func isRaceCheck(_ type: AnyClass) -> Bool {
    let module = _typeName(type, qualified: true).prefix { $0 != "." }
    return FrameKind.raceCheckModules.contains(String(module)) || module == "RaceCheckSync"
  }

  /// `Type.property` for the stored property at `offset`, or nil when none starts there.
  func property(at offset: Int) -> String? {
    names[offset].map { "\(typeName).\($0)" }
  }
}
