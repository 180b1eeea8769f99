import RaceCheckEngine

extension GeneratedHistory {
  /// An operation of a generated history, as invoked.
  enum Operation: Hashable {
    case get(key: Int)
    case put(key: Int, value: String)
    case append(key: Int, value: String)
    case read
    case write(Int)
    case cas(expected: Int, new: Int)
  }

  /// One line of a generated history.
  struct Event: Hashable {
    enum Kind: Hashable {
      case invoke
      /// Completed; for a `cas`, `ok` also carries whether it succeeded.
      case ok
      /// A `cas` that found another value.
      case fail
      /// Timed out: the outcome is unknown.
      case info
    }

    var process: Int
    var kind: Kind
    var operation: Operation
    /// What a completed `get` or `read` returned; nil for a register that holds nothing.
    var result: String?
  }

  /// The real object the clients use, and their turns.
  enum Execution {
    /// A register value that only a planted write stores: the operations drawn use 0–4.
    static let plantedValue = 5

    /// Runs `operations` operations by `clients` clients; `timeouts` in 100 operations time out.
    ///
    /// With `plantsWrite`, the middle operation invoked is a write of ``plantedValue``, which
    /// never times out; the other choices are those the same seed makes without it.
    static func run(
      clients: Int, operations: Int, timeouts: Int, random: inout SplitMix64,
      keys: Int? = nil, plantsWrite: Bool = false
    ) -> [Event] {
      var object = RealObject()
      var events: [Event] = []
      events.reserveCapacity(operations * 2)
      var process = Array(0..<clients)
      // Per client: the running operation, and the result it got if it already took effect.
      var running: [(operation: Operation, effect: String??)?] = Array(
        repeating: nil, count: clients)
      var invoked = 0
      var counter = 0
      while invoked < operations || running.contains(where: { $0 != nil }) {
        let client = random.below(clients)
        guard let current = running[client] else {
          guard invoked < operations else { continue }
          counter += 1
          var operation = draw(keys: keys, counter: counter, process: process[client], &random)
          if plantsWrite && counter == operations / 2 { operation = .write(plantedValue) }
          events.append(
            Event(process: process[client], kind: .invoke, operation: operation, result: nil))
          running[client] = (operation, nil)
          invoked += 1
          continue
        }
        if timeouts > 0 && random.below(100) < timeouts
          && !(plantsWrite && current.operation == .write(plantedValue))
        {
          // A timeout before or after the effect: both are possible in a real system.
          if current.effect == nil && random.below(2) == 0 { _ = object.apply(current.operation) }
          events.append(
            Event(process: process[client], kind: .info, operation: current.operation, result: nil))
          running[client] = nil
          process[client] += clients
          continue
        }
        guard let effect = current.effect else {
          running[client] = (current.operation, .some(object.apply(current.operation)))
          continue
        }
        var kind = Event.Kind.ok
        if case .cas = current.operation, effect == nil { kind = .fail }
        events.append(
          Event(process: process[client], kind: kind, operation: current.operation, result: effect))
        running[client] = nil
      }
      return events
    }

    private static func draw(keys: Int?, counter: Int, process: Int, _ random: inout SplitMix64)
      -> Operation
    {
      if let keys {
        let key = random.below(keys)
        switch random.below(10) {
        case 0..<4: return .get(key: key)
        case 4..<7: return .put(key: key, value: "x \(process) \(counter) y")
        default: return .append(key: key, value: "x \(process) \(counter) y")
        }
      }
      switch random.below(3) {
      case 0: return .read
      case 1: return .write(random.below(5))
      default: return .cas(expected: random.below(5), new: random.below(5))
      }
    }
  }

  /// The object the generated clients share: a key-value store and a register.
  private struct RealObject {
    var store: [Int: String] = [:]
    var register: Int?

    /// Applies `operation` at its linearization point; a read's value, `"ok"` for a `cas` that succeeded, nil otherwise.
    mutating func apply(_ operation: Operation) -> String? {
      switch operation {
      case .get(let key): return store[key] ?? ""
      case .put(let key, let value): store[key] = value
      case .append(let key, let value): store[key, default: ""] += value
      case .read: return register.map(String.init)
      case .write(let value): register = value
      case .cas(let expected, let new):
        guard register == expected else { return nil }
        register = new
        return "ok"
      }
      return nil
    }
  }
}
