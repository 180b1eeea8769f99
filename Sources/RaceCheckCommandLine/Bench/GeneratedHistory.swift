import RaceCheckEngine

/// Histories for `racecheck bench checker --generate`: written from a real sequential execution, so the legal ones are linearizable by construction.
///
/// Clients take turns at random. An idle client invokes an operation; a running one
/// either lets it take effect on the real object (its linearization point) or, once it
/// took effect, completes it with the result the object gave. Every interval thus
/// holds its operation's linearization point, and the order of those points is a
/// witness. A timeout completes an operation `:info` whether or not it took effect
/// (both are legal: an unknown outcome may or may not have happened), and the client
/// goes on under a new process number, as Jepsen's do.
///
/// The files are in formats both racecheck and Porcupine's own test parsers read:
/// key-value histories as Porcupine's `test_data/kv` EDN lines (`.txt`), compare-and-set
/// register histories as Jepsen's etcd logs (`.log`).
package struct GeneratedHistory: Sendable, Hashable {
  /// What a generated history holds.
  package enum Family: Sendable, Hashable {
    /// Porcupine's key-value store: `get`, `put` and `append` on `keys` keys by `clients` clients.
    case keyValue(keys: Int, clients: Int)
    /// A key-value store used by one client at a time: no two operations overlap.
    case sequential
    /// Jepsen's etcd register: `read`, `write` and `cas` of values 0–4, 3% timeouts, and, when `planted`, one violation.
    case casRegister(clients: Int, planted: PlantedViolation?)
  }

  /// The violation planted in a register's history, which is otherwise legal.
  package enum PlantedViolation: Sendable, Hashable {
    /// One read changed to 5, which nothing writes.
    case impossibleRead
    /// The middle operation is a write of 5, which completes; one read called after a later
    /// store returned is changed to 5, a value overwritten before the read was called.
    case staleRead
  }

  /// The family.
  package var family: Family
  /// The operations invoked.
  package var operations: Int
  /// The seed of the random choices.
  package var seed: UInt64

  package init(family: Family, operations: Int, seed: UInt64) {
    self.family = family
    self.operations = operations
    self.seed = seed
  }

  /// The file's name inside the benchmark's folder, with the folder of its family: `kv/kv-10keys-1000.txt`.
  package var path: String {
    switch family {
    case .keyValue(let keys, let clients):
      return "kv/kv-\(keys)keys-c\(clients)-\(operations).txt"
    case .sequential:
      return "sequential/sequential-\(operations).txt"
    case .casRegister(let clients, let planted):
      let suffix =
        switch planted {
        case nil: "ok"
        case .impossibleRead: "bad"
        case .staleRead: "stale"
        }
      return "cas/cas-c\(clients)-\(operations)-\(suffix).log"
    }
  }

  /// The verdict the history has by construction.
  package var expectedVerdict: HistoryVerdict.Kind {
    if case .casRegister(_, planted: _?) = family { return .notLinearizable }
    return .linearizable
  }

  /// The histories `--generate` writes: kv with 10, 100 and 1000 keys at 1k, 10k and 100k operations, sequential ones up to a million, cas registers with 10 and 20 clients.
  ///
  /// The cas registers are legal or hold an impossible read at 1k and 10k operations, and
  /// hold a stale read at 1k, 10k and 100k.
  package static func standardSet(seed: UInt64) -> [GeneratedHistory] {
    var set: [GeneratedHistory] = []
    for keys in [10, 100, 1000] {
      for operations in [1000, 10000, 100_000] {
        set.append(
          GeneratedHistory(
            family: .keyValue(keys: keys, clients: 10), operations: operations, seed: seed))
      }
    }
    for operations in [10000, 100_000, 1_000_000] {
      set.append(GeneratedHistory(family: .sequential, operations: operations, seed: seed))
    }
    for clients in [10, 20] {
      for operations in [1000, 10000] {
        for planted in [nil, .impossibleRead] as [PlantedViolation?] {
          set.append(
            GeneratedHistory(
              family: .casRegister(clients: clients, planted: planted), operations: operations,
              seed: seed))
        }
      }
      for operations in [1000, 10000, 100_000] {
        set.append(
          GeneratedHistory(
            family: .casRegister(clients: clients, planted: .staleRead), operations: operations,
            seed: seed))
      }
    }
    return set
  }

  /// The file's text.
  package func text() -> String {
    var random = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: path.hashValueStable))
    switch family {
    case .keyValue(let keys, let clients):
      return KeyValueWriter.write(
        Execution.run(
          clients: clients, operations: operations, timeouts: 0, random: &random, keys: keys))
    case .sequential:
      return KeyValueWriter.write(
        Execution.run(clients: 1, operations: operations, timeouts: 0, random: &random, keys: 1))
    case .casRegister(let clients, let planted):
      var events = Execution.run(
        clients: clients, operations: operations, timeouts: 3, random: &random,
        plantsWrite: planted == .staleRead)
      switch planted {
      case nil: break
      case .impossibleRead: EtcdLogWriter.corruptOneRead(&events)
      case .staleRead: EtcdLogWriter.makeOneReadStale(&events)
      }
      return EtcdLogWriter.write(events)
    }
  }
}

extension String {
  /// FNV-1a of the UTF-8 bytes: unlike `hashValue`, the same in every run.
  fileprivate var hashValueStable: UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    return hash
  }
}
