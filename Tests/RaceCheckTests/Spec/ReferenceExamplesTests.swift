import Dispatch
import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

// Every Swift block of docs/reference.md is copied from this file, line for line (indentation
// aside): `everyBlockOfTheReferenceIsCodeOfThisFile` fails when one is not, so an example the
// reference shows is one that compiles here and passes a check of a correct subject.

extension RaceCheckTestSuite {
  /// The examples of docs/reference.md compile, build valid specs and pass on correct subjects.
  @Suite struct ReferenceExamplesTests {
    @Test func everyBlockOfTheReferenceIsCodeOfThisFile() throws {
      let examples = try DocumentationFiles.swiftBlocks(
        of: URL(fileURLWithPath: ReferenceDocument.path))
      let source = try DocumentationFiles.trimmedLines(of: #filePath)
      #expect(examples.count >= 20)
      for block in examples {
        let isCodeHere = DocumentationFiles.contains(source, block)
        #expect(isCodeHere, "not in \(#fileID):\n\(block.joined(separator: "\n"))")
      }
    }

    @Test func everyExampleOfTheFormsTableIsCodeOfThisFile() throws {
      let reference = try String(contentsOfFile: ReferenceDocument.path, encoding: .utf8)
      let section = try #require(
        reference.split(separator: "### Which form to use", maxSplits: 1).dropFirst().first)
      let rows = section.split(separator: "\n").drop { !$0.hasPrefix("|") }
        .prefix { $0.hasPrefix("|") }.dropFirst(2)
      let source = try DocumentationFiles.trimmedLines(of: #filePath)
      #expect(rows.count == 5)
      for row in rows {
        let example = try #require(row.split(separator: "|").last)
          .trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"])
        #expect(DocumentationFiles.contains(source, [example]), "not in \(#fileID): \(example)")
      }
    }

    @Test func theFormsTableOwnModelExampleMakesAValidSpec() {
      let own = Spec("HitCounter", make: HitCounter.init, model: 0) {
        Operation("get", perform: { (c: HitCounter) in c.value }, model: { (n: inout Int) in n })
      }
      ReferenceCheck.passes(own)
    }

    @Test func specsOfBuiltInAndOwnModels() {
      let builtIn = Spec("HitCounter", make: HitCounter.init, model: CounterModel()) {
        Operation("get") { (counter: HitCounter) in counter.value }
        Operation("increment") { (counter: HitCounter) in counter.increment() }
      }
      let own = Spec("HitCounter", make: HitCounter.init, model: 0) {
        Operation(
          "get", perform: { (counter: HitCounter) in counter.value },
          model: { (count: inout Int) in count })
        Operation(
          "increment", perform: { (counter: HitCounter) in counter.increment() },
          model: { (count: inout Int) in count += 1 })
      }
      ReferenceCheck.passes(builtIn)
      ReferenceCheck.passes(own)
    }

    @Test func synchronousOperationForms() {
      let vocabulary = Spec("HitCounter", make: HitCounter.init, model: CounterModel()) {
        Operation("get") { (counter: HitCounter) in counter.value }
        Operation("add", .int(in: 1...3)) { (counter: HitCounter, n: Int) in counter.add(n) }
      }
      let own = Spec("HitCounter", make: HitCounter.init, model: 0) {
        Operation(
          "get", perform: { (counter: HitCounter) in counter.value },
          model: { (count: inout Int) in count })
        Operation(
          "add", .int(in: 1...3), perform: { (counter: HitCounter, n: Int) in counter.add(n) },
          model: { (count: inout Int, n: Int) in count += n })
      }
      let subjectsNames = Spec("Setting", make: Setting.init, model: RegisterModel(state: 0)) {
        Operation("load", as: "read") { (setting: Setting) in setting.value }
        Operation("store", as: "write", .int(in: 1...3)) { (setting: Setting, x: Int) in
          setting.value = x
        }
      }
      ReferenceCheck.passes(vocabulary)
      ReferenceCheck.passes(own)
      ReferenceCheck.passes(subjectsNames)
    }

    @Test func completionHandlerForms() {
      let vocabulary = Spec("Inbox", make: Inbox.init, model: QueueModel()) {
        Operation("dequeue", completing: { (inbox: Inbox) in { done in inbox.dequeue(done) } })
        Operation(
          "enqueue", .int(in: 0...3),
          completing: { (inbox: Inbox, x: Int) in { done in inbox.enqueue(x) { _ in done() } } })
      }
      let own = Spec("Inbox", make: Inbox.init, model: QueueModel()) {
        Operation("dequeue", completing: { (inbox: Inbox) in { done in inbox.dequeue(done) } })
        Operation(
          "enqueue", .int(in: 0...3),
          completing: { (inbox: Inbox, x: Int) in { done in inbox.enqueue(x, done) } },
          model: { (model: inout QueueModel, x: Int) in
            model.elements.append(.int(x))
            return model.elements.count  // the handler delivers the new count
          })
      }
      let ownWithNoValue = Spec("Inbox", make: Inbox.init, model: QueueModel()) {
        Operation("dequeue", completing: { (inbox: Inbox) in { done in inbox.dequeue(done) } })
        Operation(
          "enqueue", .int(in: 0...3),
          completing: { (inbox: Inbox, x: Int) in { done in inbox.enqueue(x) { _ in done() } } },
          model: { (model: inout QueueModel, x: Int) in model.elements.append(.int(x)) })
      }
      ReferenceCheck.passes(vocabulary)
      ReferenceCheck.passes(own)
      ReferenceCheck.passes(ownWithNoValue)
    }

    @Test func aHandlerCalledOnSomePathsIsCalledOnEveryPathByTheAdapter() {
      let spec = Outbox.spec {
        Operation(
          "remove", .int(in: 0...3),
          completing: { (outbox: Outbox, id: Int) in
            { done in
              // `cancel` says whether its handler will come: when it will not, say `false` here.
              if !outbox.cancel(id, completion: { done(true) }) { done(false) }
            }
          })
      }
      ReferenceCheck.passes(spec)
    }

    @Test func aHandlerWhosePathIsDecidedLaterIsFollowedByOneThatAlwaysComes() {
      let spec = Outbox.spec {
        Operation(
          "remove", .int(in: 0...3),
          completing: { (outbox: Outbox, id: Int) in
            { done in
              outbox.cancelLater(id) { done(true) }
              outbox.afterPendingWork { done(false) }  // the first value delivered counts
            }
          })
      }
      ReferenceCheck.passes(spec)
    }

    /// A handler that never comes is the code's hang, never a broken spec.
    @Test func aHandlerThatNeverComesIsAnInProcessChecksHangNamingTheCall() throws {
      var configuration = ReferenceCheck.configuration
      configuration.minimizes = false
      let report = Outbox.waitingForEveryHandler(timeout: .milliseconds(200)).check(configuration)
      #expect(report.specError == nil, "\(report)")
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.kind == .hang)
      #expect(failure.crash?.inFlight.contains { $0.call.operation == "remove" } == true)
      let detail = failure.crash?.detail ?? ""
      #expect(detail.contains("the completion handler of remove("), "\(report)")
      #expect(detail.contains("was not called within 0.2 s"), "\(report)")
    }

    @Test func aHandlerThatNeverComesIsAHangInAnIsolatedChild() throws {
      var configuration = ReferenceCheck.configuration
      configuration.isolated = true
      configuration.minimizes = false
      configuration.hangTimeout = .seconds(2)
      var report: CheckReport?
      withKnownIssue {
        report = check(Outbox.waitingForEveryHandler(), configuration: configuration)
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      #expect(failure.kind == .hang)
      #expect(failure.crash?.inFlight.contains { $0.call.operation == "remove" } == true)
      let detail = failure.crash?.detail ?? ""
      #expect(detail.contains("no invocation ended for 2 s"), "\(detail)")
    }

    @Test func thrownErrorsAsResults() async {
      let spec = Spec("Purse", make: Purse.init, model: 0) {
        Operation("earn", .int(in: 1...3)) { (purse: Purse, amount: Int) in
          await purse.earn(amount)
        } model: { (coins: inout Int, amount: Int) in
          coins += amount
        }
        Operation("spend", .int(in: 1...3)) { (purse: Purse, amount: Int) in
          try await purse.spend(amount)
        } model: { (coins: inout Int, amount: Int) -> Result<Int, PurseError> in
          guard coins >= amount else { return .failure(.tooFewCoins) }
          coins -= amount
          return .success(coins)
        }
        .recordingThrownErrors()
      }
      await ReferenceCheck.passesAsync(spec)
    }

    @Test func asyncOperationForms() async {
      let vocabulary = Spec("Wallet", make: Wallet.init, model: CounterModel()) {
        Operation("get") { (wallet: Wallet) in await wallet.balance }
        Operation("add", .int(in: 1...3)) { (wallet: Wallet, n: Int) in await wallet.deposit(n) }
      }
      let own = Spec("Wallet", make: Wallet.init, model: 0) {
        Operation(
          "balance", timeout: .seconds(5), perform: { (wallet: Wallet) in await wallet.balance },
          model: { (balance: inout Int) in balance })
        Operation("withdraw", .int(in: 1...2)) { (wallet: Wallet, n: Int) in
          await wallet.withdraw(n)
        } model: { (balance: inout Int, n: Int) -> Bool in
          guard balance >= n else { return false }
          balance -= n
          return true
        }
        Operation(
          "deposit", .int(in: 1...2),
          perform: { (wallet: Wallet, n: Int) in await wallet.deposit(n) },
          model: { (balance: inout Int, n: Int) in balance += n })
      }
      await ReferenceCheck.passesAsync(vocabulary)
      await ReferenceCheck.passesAsync(own)
    }

    @Test func requirementsMainThreadAndIteration() {
      let spec = Spec("Playlist", make: Playlist.init, model: ArrayModel()) {
        Operation("append", .int(in: 0...3)) { (list: Playlist, x: Int) in list.append(x) }
        Operation("get", .int(in: 0...3)) { (list: Playlist, i: Int) in list[i] }
          .requires { (model: ArrayModel, i: Int) in i < model.count }
        Operation("count") { (list: Playlist) in list.count }.onMainThread()
        Operation.iteration()
      }
      ReferenceCheck.passes(spec, isolated: true)
    }

    @Test func arrayModel() {
      let spec = Spec("Playlist", make: Playlist.init, model: ArrayModel()) {
        Operation("count") { (list: Playlist) in list.count }
        Operation("first") { (list: Playlist) in list.first }
        Operation("append", .int(in: 0...3)) { (list: Playlist, x: Int) in list.append(x) }
        Operation("insert", .int(in: 0...3), .int(in: 0...2)) { (list: Playlist, x: Int, i: Int) in
          list.insert(x, at: i)
        }
        Operation("indexOf", .int(in: 0...3)) { (list: Playlist, x: Int) in list.firstIndex(of: x) }
        Operation("removeLast") { (list: Playlist) in list.removeLast() }
        Operation("moveToFront", .int(in: 0...2)) { (list: Playlist, i: Int) in
          list.moveToFront(i)
        } model: { (model: inout ArrayModel, i: Int) in
          guard model.elements.indices.contains(i) else { return }
          model.elements.insert(model.elements.remove(at: i), at: 0)
        }
      }
      ReferenceCheck.passes(spec)
    }

    @Test func queueAndStackModels() {
      let queue = Spec("JobQueue", make: JobQueue.init, model: QueueModel()) {
        Operation("enqueue", .int(in: 0...3)) { (jobs: JobQueue, job: Int) in jobs.enqueue(job) }
        Operation("dequeue") { (jobs: JobQueue) in jobs.dequeue() }
        Operation(
          "peek", perform: { (jobs: JobQueue) in jobs.peek() },
          model: { (model: inout QueueModel) in model.elements.first ?? .null })
      }
      let stack = Spec("UndoStack", make: UndoStack.init, model: StackModel()) {
        Operation("push", .int(in: 0...3)) { (undo: UndoStack, edit: Int) in undo.push(edit) }
        Operation("pop") { (undo: UndoStack) in undo.pop() }
        Operation(
          "top", perform: { (undo: UndoStack) in undo.top },
          model: { (model: inout StackModel) in model.elements.last ?? .null })
      }
      ReferenceCheck.passes(queue)
      ReferenceCheck.passes(stack)
    }

    @Test func setModel() {
      let spec = Spec("TagSet", make: TagSet.init, model: SetModel()) {
        Operation("insert", .element(of: ["a", "b", "c"])) { (tags: TagSet, tag: String) in
          tags.insert(tag)
        }
        Operation("contains", .element(of: ["a", "b", "c"])) { (tags: TagSet, tag: String) in
          tags.contains(tag)
        }
        Operation("toggle", .element(of: ["a", "b"])) { (tags: TagSet, tag: String) in
          tags.toggle(tag)
        } model: { (model: inout SetModel, tag: String) -> Bool in
          model.members.remove(.string(tag)) == nil && model.members.insert(.string(tag)).inserted
        }
        Operation.iteration()
      }
      ReferenceCheck.passes(spec)
    }

    @Test func registerModels() {
      let register = Spec("Setting", make: Setting.init, model: RegisterModel(state: 0)) {
        Operation("read") { (setting: Setting) in setting.value }
        Operation("write", .int(in: 1...3)) { (setting: Setting, x: Int) in setting.value = x }
        Operation(
          "bump", perform: { (setting: Setting) in setting.bump() },
          model: { (model: inout RegisterModel) in
            model.value = .int((model.value.intValue ?? 0) + 1)
          })
      }
      let cas = Spec("Setting", make: Setting.init, model: CASRegisterModel(state: 0)) {
        Operation("read") { (setting: Setting) in setting.value }
        Operation("cas", .int(in: 0...2), .int(in: 0...2)) {
          (setting: Setting, old: Int, new: Int) in
          setting.compareAndSet(old, new)
        }
      }
      ReferenceCheck.passes(register)
      ReferenceCheck.passes(cas)
    }

    @Test func counterModel() {
      let spec = Spec("HitCounter", make: HitCounter.init, model: CounterModel()) {
        Operation("get") { (counter: HitCounter) in counter.value }
        Operation("set", .int(in: 0...3)) { (counter: HitCounter, n: Int) in counter.reset(to: n) }
        Operation(
          "double", perform: { (counter: HitCounter) in counter.double() },
          model: { (model: inout CounterModel) in model.value *= 2 })
      }
      ReferenceCheck.passes(spec)
    }

    @Test func dictionaryAndKeyValueModels() {
      let scores = Spec("Scores", make: Scores.init, model: DictionaryModel()) {
        Operation("get", .element(of: ["ann", "bob"])) { (scores: Scores, name: String) in
          scores[name]
        }
        Operation("set", .element(of: ["ann", "bob"]), .int(in: 0...9)) {
          (scores: Scores, name: String, score: Int) in scores[name] = score
        }
        Operation("keys") { (scores: Scores) in scores.names }
        Operation("addPoint", .element(of: ["ann", "bob"])) { (scores: Scores, name: String) in
          scores.addPoint(name)
        } model: { (model: inout DictionaryModel, name: String) in
          model[name] = .int((model[name]?.intValue ?? 0) + 1)
        }
        Operation(
          "total", perform: { (scores: Scores) in scores.total },
          model: { (model: inout DictionaryModel) in
            model.entries.values.reduce(0) { $0 + ($1.intValue ?? 0) }
          })
      }
      let notes = Spec("Notes", make: Notes.init, model: KeyValueModel()) {
        Operation("get", .element(of: ["x", "y"])) { (notes: Notes, key: String) in notes[key] }
        Operation("append", .element(of: ["x", "y"]), .element(of: ["a", "b"])) {
          (notes: Notes, key: String, text: String) in notes.append(text, to: key)
        }
        Operation("length", .element(of: ["x", "y"])) { (notes: Notes, key: String) in
          notes[key].count
        } model: { (model: inout KeyValueModel, key: String) in
          model.values[key, default: ""].count
        }
      }
      ReferenceCheck.passes(scores)
      ReferenceCheck.passes(notes)
    }

    @Test func generators() {
      let index = Generator.int(in: 0...7)  // early scenarios draw 0 or 1
      let key = Generator.element(of: ["a", "b", "c"])
      let always = Generator.constant(42)
      let flag = Generator.bool
      let name = Generator.int(in: 0...3).map({ "item-\($0)" }, inverse: { Int($0.dropFirst(5)) })
      let even = Generator<Int>(
        draw: { random, breadth in 2 * Int(random.next() % UInt64(breadth + 1)) },
        shrink: { $0 > 0 ? [0] : [] })
      var random: any RandomNumberGenerator = SplitMix64(seed: 1)
      for _ in 0..<50 {
        #expect((0...1).contains(index.draw(&random, 1)))
        #expect(["a", "b"].contains(key.draw(&random, 1)))
        #expect(always.draw(&random, 5) == 42)
        #expect(["item-0", "item-1"].contains(name.draw(&random, 1)))
        #expect([0, 2].contains(even.draw(&random, 1)))
        _ = flag.draw(&random, 1)
      }
      #expect(name.shrink("item-3") == ["item-0", "item-1", "item-2"])
      let spec = Spec("Scores", make: Scores.init, model: DictionaryModel()) {
        Operation("set", name, even) { (scores: Scores, name: String, score: Int) in
          scores[name] = score
        }
        Operation("get", name) { (scores: Scores, name: String) in scores[name] }
      }
      ReferenceCheck.passes(spec)
    }

    @Test func targetsAndTheirExpectations() {
      let storeSpec = Spec("HitCounter", make: HitCounter.init, model: CounterModel()) {
        Operation("get") { (counter: HitCounter) in counter.value }
      }
      let accountSpec = storeSpec
      let targets: [Target] = {
        var store = Target(storeSpec, summary: "a dictionary in a Mutex", expectation: .pass)
        // The scheduler cannot see its Atomic count, so schedule mode claims nothing.
        store.scheduleExpectation = .inconclusive
        var account = Target(
          accountSpec, summary: "a read that skips the lock",
          expectation: .fail(.dataRace, or: [.unclassified]))
        // Thread Sanitizer sees which access skipped the lock.
        account.sanitizerExpectation = .fail(.unsynchronizedAccess)
        return [store, account]
      }()
      let (store, account) = (targets[0], targets[1])
      #expect(store.scheduleModeExpectation == .inconclusive)
      #expect(account.scheduleModeExpectation == account.expectation)
      #expect(store.stressExpectation == (SanitizerRaceLog.isActive ? .pass : store.expectation))
      #expect(
        account.stressExpectation
          == (SanitizerRaceLog.isActive ? .fail(.unsynchronizedAccess) : account.expectation))
      let accepted = account.expectation
      #expect(accepted?.diagnosis == .dataRace && accepted?.otherBugs == [.unclassified])
      let pass = CheckReport(target: "HitCounter", seed: 1, configuration: Configuration())
      #expect(Expectation.pass.isMet(by: pass) && accepted?.isMet(by: pass) == false)
    }

    @Test func theDocumentedDefaultsAreTheCodes() {
      let defaults = Configuration()
      #expect(defaults.seed == nil)
      #expect(defaults.shape == Configuration.Shape(threads: 2, operationsPerThread: 5))
      #expect(defaults.shape.initialOperations == 5 && defaults.shape.postOperations == 5)
      #expect(defaults.scenarios == 30 && defaults.invocations == 500)
      #expect(defaults.firstScenario == 0 && defaults.timeLimit == nil)
      #expect(defaults.minimizes && defaults.shrinkTimeLimit == .seconds(10))
      #expect(defaults.reproDirectory == nil && defaults.isolated)
      #expect(defaults.hangTimeout == .seconds(10) && !defaults.requiresConclusiveVerdict)
      #expect(defaults.mode == .stress && defaults.shard == nil && defaults.origin == nil)
      let schedule = ScheduleSettings()
      #expect(schedule.strategy == .random && schedule.depth == 3 && schedule.preemptionBound == 2)
      #expect(schedule.schedules == 50 && schedule.maxSteps == 10_000)
    }

    @Test func configurationExample() {
      var configuration = Configuration(seed: 0x5EED, scenarios: 50, invocations: 2_000)
      configuration.shape = Configuration.Shape(threads: 3, operationsPerThread: 4)
      configuration.timeLimit = .seconds(60)
      configuration.requiresConclusiveVerdict = true
      configuration.mode = .schedule(strategy: .pct, depth: 2)
      #expect(configuration.shape.initialOperations == 5)
      #expect(configuration.mode.scheduleSettings?.summary == "PCT depth 2")
    }

    @Test func oneCallAndOneSettingsValuePerKindOfCheck() {
      let spec = Spec("HitCounter", make: HitCounter.init, model: CounterModel()) {
        Operation("get") { (counter: HitCounter) in counter.value }
        Operation("increment") { (counter: HitCounter) in counter.increment() }
      }
      // Compiled, not run: the defaults' budgets are for a real test, not this one.
      let runAll: () -> Void = {
        let fast = Configuration(seed: 7, timeLimit: .seconds(30))
        let dpor = Configuration(seed: 7, mode: .schedule(strategy: .dpor, schedules: 200))
        check(spec, configuration: fast)
        check(spec, configuration: dpor)
        explore(configuration: Configuration.Exploration(strategy: .dpor, seed: 7)) {
          // the body
        }
        let clients = Configuration.Workload(clients: 4, limit: .operations(2_000), seed: 7)
        workload(spec, configuration: clients)
      }
      _ = runAll
      let exploration = Configuration.Exploration()
      #expect(exploration.schedules == 1_000 && exploration.strategy == .random)
      #expect(exploration.isolated && exploration.hangTimeout == .seconds(10))
      let clientsDefaults = Configuration.Workload()
      #expect(clientsDefaults.clients == 10 && clientsDefaults.limit == .duration(.seconds(10)))
      #expect(clientsDefaults.operationTimeout == .seconds(5) && clientsDefaults.seed == 1)
      #expect(Configuration.Mode.schedule().scheduleSettings == ScheduleSettings())
    }
  }
}

/// Runs the reference's specs with a tiny budget in this process.
enum ReferenceCheck {
  static var configuration: Configuration {
    Configuration(
      seed: 1, scenarios: 3, invocations: 100, reproDirectory: FileManagerTemporary.directory,
      isolated: false)
  }

  /// Checks `spec`, in a child when it `isolated` (a spec with operations that trap by contract).
  static func passes<Subject, Model>(
    _ spec: Spec<Subject, Model>, isolated: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var configuration = configuration
    configuration.isolated = isolated
    let report = check(spec, configuration: configuration)
    #expect(report.verdict == .pass, "\(report)", sourceLocation: sourceLocation)
  }

  static func passesAsync<Subject, Model>(
    _ spec: Spec<Subject, Model>, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let report = await check(spec, configuration: configuration)
    #expect(report.verdict == .pass, "\(report)", sourceLocation: sourceLocation)
  }
}

/// Where docs/reference.md is; its Swift blocks are read and compared by ``DocumentationFiles``.
enum ReferenceDocument {
  static var path: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/reference.md").path
  }
}

/// Why a purse refuses to pay.
enum PurseError: Error {
  case tooFewCoins
}

/// Coins an actor keeps: spending more than it holds throws.
actor Purse {
  private var coins = 0

  func earn(_ amount: Int) { coins += amount }

  func spend(_ amount: Int) throws -> Int {
    guard coins >= amount else { throw PurseError.tooFewCoins }
    coins -= amount
    return coins
  }
}

/// A counter behind a lock.
final class HitCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
  func add(_ n: Int) { lock.withLock { count += n } }
  func reset(to n: Int) { lock.withLock { count = n } }
  func double() { lock.withLock { count *= 2 } }
}

/// A FIFO queue whose calls complete on its serial queue.
final class Inbox: @unchecked Sendable {
  private let queue = DispatchQueue(label: "inbox")
  private var messages: [Int] = []

  /// Adds `message`; the handler gets the new count.
  func enqueue(_ message: Int, _ completion: @escaping @Sendable (Int) -> Void) {
    queue.async {
      self.messages.append(message)
      completion(self.messages.count)
    }
  }

  func dequeue(_ completion: @escaping @Sendable (Int?) -> Void) {
    queue.async { completion(self.messages.isEmpty ? nil : self.messages.removeFirst()) }
  }
}

/// A balance kept by an actor, with no suspension inside its methods.
actor Wallet {
  private(set) var balance = 0

  func deposit(_ amount: Int) { balance += amount }
  func withdraw(_ amount: Int) -> Bool {
    guard balance >= amount else { return false }
    balance -= amount
    return true
  }
}

/// An array behind a lock whose subscript traps out of range, as `Array`'s does.
final class Playlist: Sequence, @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Int] = []

  var count: Int { lock.withLock { items.count } }
  var first: Int? { lock.withLock { items.first } }
  subscript(index: Int) -> Int { lock.withLock { items[index] } }
  func append(_ item: Int) { lock.withLock { items.append(item) } }
  func insert(_ item: Int, at index: Int) {
    lock.withLock { if index <= items.count { items.insert(item, at: index) } }
  }
  func firstIndex(of item: Int) -> Int? { lock.withLock { items.firstIndex(of: item) } }
  func removeLast() { lock.withLock { _ = items.popLast() } }
  func moveToFront(_ index: Int) {
    lock.withLock {
      if items.indices.contains(index) { items.insert(items.remove(at: index), at: 0) }
    }
  }
  func makeIterator() -> IndexingIterator<[Int]> { lock.withLock { items }.makeIterator() }
}

/// A FIFO queue behind a lock.
final class JobQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var jobs: [Int] = []

  func enqueue(_ job: Int) { lock.withLock { jobs.append(job) } }
  func dequeue() -> Int? { lock.withLock { jobs.isEmpty ? nil : jobs.removeFirst() } }
  func peek() -> Int? { lock.withLock { jobs.first } }
}

/// A LIFO stack behind a lock.
final class UndoStack: @unchecked Sendable {
  private let lock = NSLock()
  private var edits: [Int] = []

  var top: Int? { lock.withLock { edits.last } }
  func push(_ edit: Int) { lock.withLock { edits.append(edit) } }
  func pop() -> Int? { lock.withLock { edits.popLast() } }
}

/// A set of strings behind a lock.
final class TagSet: Sequence, @unchecked Sendable {
  private let lock = NSLock()
  private var tags: Set<String> = []

  func insert(_ tag: String) -> Bool { lock.withLock { tags.insert(tag).inserted } }
  func contains(_ tag: String) -> Bool { lock.withLock { tags.contains(tag) } }
  /// Removes `tag` when present, else inserts it; returns whether it is present now.
  func toggle(_ tag: String) -> Bool {
    lock.withLock { tags.remove(tag) == nil && tags.insert(tag).inserted }
  }
  func makeIterator() -> Set<String>.Iterator { lock.withLock { tags }.makeIterator() }
}

/// One integer behind a lock.
final class Setting: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = 0

  var value: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  func bump() { lock.withLock { stored += 1 } }
  func compareAndSet(_ expected: Int, _ new: Int) -> Bool {
    lock.withLock {
      guard stored == expected else { return false }
      stored = new
      return true
    }
  }
}

/// Scores by name behind a serial queue.
final class Scores: @unchecked Sendable {
  private let queue = DispatchQueue(label: "scores")
  private var scores: [String: Int] = [:]

  subscript(name: String) -> Int? {
    get { queue.sync { scores[name] } }
    set { queue.sync { scores[name] = newValue } }
  }
  var names: [String] { queue.sync { scores.keys.sorted() } }
  var total: Int { queue.sync { scores.values.reduce(0, +) } }
  func addPoint(_ name: String) { queue.sync { scores[name, default: 0] += 1 } }
}

/// Strings by key behind a lock; an absent key reads as "".
final class Notes: @unchecked Sendable {
  private let lock = NSLock()
  private var notes: [String: String] = [:]

  subscript(key: String) -> String { lock.withLock { notes[key] ?? "" } }
  func append(_ text: String, to key: String) { lock.withLock { notes[key, default: ""] += text } }
}

/// Pending message ids; `cancel` calls its handler only when the id was pending.
final class Outbox: @unchecked Sendable {
  private let lock = NSLock()
  private let queue = DispatchQueue(label: "outbox")
  private var pending: Set<Int> = []

  func send(_ id: Int) -> Bool { lock.withLock { pending.insert(id).inserted } }

  /// Cancels `id` and returns whether it was pending: only then does `completion` run, on the outbox's queue.
  func cancel(_ id: Int, completion: @escaping @Sendable () -> Void) -> Bool {
    let found = lock.withLock { pending.remove(id) != nil }
    if found { queue.async(execute: completion) }
    return found
  }

  /// Cancels `id` on the outbox's queue, where `completion` runs only when `id` was pending.
  func cancelLater(_ id: Int, completion: @escaping @Sendable () -> Void) {
    queue.async {
      if self.lock.withLock({ self.pending.remove(id) != nil }) { completion() }
    }
  }

  /// Runs `body` on the outbox's queue, after the work submitted before it.
  func afterPendingWork(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }
}

extension Outbox {
  /// One of the outbox's operations; named in full, since Foundation has an `Operation` too.
  typealias Operation = RaceCheck.Operation<Outbox, SetModel>

  /// The outbox's spec: `insert` is `send`, and `remove` is written as the test gives it.
  static func spec(@OperationBuilder<Outbox, SetModel> removing remove: () -> [Operation])
    -> Spec<Outbox, SetModel>
  {
    Spec("Outbox", make: Outbox.init, model: SetModel()) {
      Operation("insert", .int(in: 0...3)) { (outbox: Outbox, id: Int) in outbox.send(id) }
      remove()
    }
  }

  /// A spec whose `remove` waits for a handler that does not come when the id was not pending.
  static func waitingForEveryHandler(timeout: Duration = .seconds(30)) -> Spec<Outbox, SetModel> {
    spec {
      Operation(
        "remove", .int(in: 0...3), timeout: timeout,
        completing: { (outbox: Outbox, id: Int) in
          { done in outbox.cancelLater(id) { done(true) } }
        })
    }
  }
}
