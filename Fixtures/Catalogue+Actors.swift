import RaceCheck

// MARK: - Actors and async/await

// Rows written for racecheck: Swift concurrency's own answer to the posts' bugs, and the
// atomicity bug it keeps. docs/catalogue.md gives each row's reason.
extension Catalogue {
  static var bankAccountActor: Target {
    // Opened with 5, deposits of 1 and withdrawals of 3: two withdrawals that run at once
    // while the balance is 3 to 5 overdraw it, so most scenarios with a withdrawal on each
    // thread can show the bug whatever ran before. The withdrawals' results show the balance;
    // a read of it would only leave fewer withdrawals in the demo's small scenarios.
    @Sendable func openAccount() -> BankAccountActor { BankAccountActor(openingBalance: 5) }
    let spec = Spec("BankAccountActor", make: openAccount, model: 5) {
      Operation("deposit", .int(in: 1...1)) { (account: BankAccountActor, amount: Int) in
        await account.deposit(amount)
      } model: { (balance: inout Int, amount: Int) in
        balance += amount
      }
      Operation("withdraw", .int(in: 3...3)) { (account: BankAccountActor, amount: Int) in
        await account.withdraw(amount)
      } model: { (balance: inout Int, amount: Int) -> Bool in
        guard balance >= amount else { return false }
        balance -= amount
        return true
      }
    }
    return Target(
      spec, summary: "an actor whose withdraw checks the balance, awaits an audit, then subtracts",
      expectation: .fail(.actorReentrancy))
  }

  /// An image cache's state: each key's image, and the number of loads so far, which numbers the next image.
  struct ImageCacheState: Hashable, Sendable {
    var images: [String: Int] = [:]
    var loads = 0
  }

  static var imageCacheActor: Target {
    // One key, so that any two requests that run at once after a `removeAll()` (or before the
    // first load) both miss; the images' numbers show a second load.
    let spec = Spec("ImageCacheActor", make: ImageCacheActor.init, model: ImageCacheState()) {
      Operation("image", .element(of: ["avatar"])) { (cache: ImageCacheActor, key: String) in
        await cache.image(for: key)
      } model: { (cache: inout ImageCacheState, key: String) -> Int in
        if let cached = cache.images[key] { return cached }
        cache.loads += 1
        cache.images[key] = cache.loads
        return cache.loads
      }
      Operation("removeAll") { (cache: ImageCacheActor) in
        await cache.removeAll()
      } model: { (cache: inout ImageCacheState) in
        cache.images = [:]
      }
    }
    return Target(
      spec, summary: "an actor cache that, on a miss, awaits the load and then stores the image",
      expectation: .fail(.actorReentrancy))
  }

  static var counterActor: Target {
    let spec = Spec("CounterActor", make: CounterActor.init, model: CounterModel()) {
      Operation("get") { (counter: CounterActor) in await counter.value }
      Operation("increment") { (counter: CounterActor) in await counter.increment() }
    }
    return Target(
      spec, summary: "an actor counter whose methods do not suspend", expectation: .pass)
  }

  static var mainActorViewModel: Target {
    let spec = Spec("MainActorViewModel", make: MainActorViewModel.init, model: 0) {
      Operation("count") { (model: MainActorViewModel) in
        await model.items.count
      } model: { (count: inout Int) in
        count
      }
      Operation("refresh") { (model: MainActorViewModel) in
        await model.refresh()
      } model: { (count: inout Int) in
        count += 1
      }
    }
    return Target(
      spec,
      summary: "a @MainActor view model whose refresh awaits a fetch between reading and writing",
      expectation: .fail(.actorReentrancy))
  }

  static var taskGroupAccumulator: Target {
    let spec = Spec("TaskGroupAccumulator", make: TaskGroupAccumulator.init, model: 0) {
      Operation("collect", .int(in: 1...3)) { (results: TaskGroupAccumulator, tasks: Int) in
        await results.collect(tasks)
      } model: { (count: inout Int, tasks: Int) -> Int in
        count += tasks
        return (0..<tasks).map { $0 * $0 }.reduce(0, +)
      }
      Operation("count") { (results: TaskGroupAccumulator) in
        await results.count
      } model: { (count: inout Int) in
        count
      }
    }
    return Target(
      spec, summary: "child tasks of a task group append into an actor, kept batch by batch",
      expectation: .pass)
  }
}
