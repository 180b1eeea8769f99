import Dispatch
import Foundation
import RaceCheck
import Testing

extension Catalogue {
  /// Bodies to explore, written as an app's or a server's tests are, each beside its fixed twin.
  ///
  /// Each runs under the controlled scheduler (``Exploration``), in every mode of the command
  /// line, and must reach its verdict on seeds 1 to 10 within the default budget.
  public static let explorations: [Fixture] = [
    Fixture(row: 41, post: nil, target: thumbnailFanOut),
    Fixture(row: 42, post: nil, target: serialThumbnailFanOut),
    Fixture(row: 43, post: nil, target: sessionMadeTwice),
    Fixture(row: 44, post: nil, target: sessionMadeOnce),
    Fixture(row: 45, post: nil, target: transfersInOppositeOrders),
    Fixture(row: 46, post: nil, target: transfersInOneOrder),
    Fixture(row: 47, post: nil, target: handoffSignalledTooEarly),
    Fixture(row: 48, post: nil, target: handoffCheckedBeforeWaiting),
    Fixture(row: 49, post: nil, target: profileAssertedAfterAYield),
    Fixture(row: 50, post: nil, target: profileAssertedAfterTheLoad),
    Fixture(row: 51, post: nil, target: staleSearchShown),
    Fixture(row: 52, post: nil, target: staleSearchDropped),
    Fixture(row: 53, post: nil, target: completedByResponseAndTimeout),
    Fixture(row: 54, post: nil, target: completedOnce),
  ]

  /// The targets of ``explorations``, for the command line.
  public static var explorationTargets: [Target] { explorations.map(\.target) }

  // MARK: - A DispatchGroup fan-out

  private static var thumbnailFanOut: Target {
    Target(
      Exploration("ThumbnailFanOut") {
        let fetcher = ThumbnailFetcher()
        fetcher.fetchAll([1, 2])
        #expect(fetcher.thumbnails.sorted() == [10, 20])
      },
      summary: "a DispatchGroup fan-out whose global-queue blocks append to one array unguarded",
      expectation: .fail(.unsynchronizedAccess))
  }

  private static var serialThumbnailFanOut: Target {
    Target(
      Exploration("SerialThumbnailFanOut") {
        let fetcher = SerialThumbnailFetcher()
        fetcher.fetchAll([1, 2])
        #expect(fetcher.thumbnails.sorted() == [10, 20])
      },
      summary: "ThumbnailFanOut fixed: the blocks append on a serial queue", expectation: .pass)
  }

  // MARK: - Double-checked lazy initialization

  private static var sessionMadeTwice: Target {
    Target(
      Exploration("SessionMadeTwice") {
        let registry = SessionRegistry()
        let group = DispatchGroup()
        for _ in 0..<2 {
          DispatchQueue.global().async(group: group) { _ = registry.shared() }
        }
        group.wait()
        #expect(registry.sessionsMade == 1)
      },
      summary: "a lazily made shared session, checked before the lock and not again under it",
      expectation: .fail(.unsynchronizedAccess))
  }

  private static var sessionMadeOnce: Target {
    Target(
      Exploration("SessionMadeOnce") {
        let registry = LockedSessionRegistry()
        let group = DispatchGroup()
        for _ in 0..<2 {
          DispatchQueue.global().async(group: group) { _ = registry.shared() }
        }
        group.wait()
        #expect(registry.sessionsMade == 1)
      },
      summary: "SessionMadeTwice fixed: the check and the making both under the lock",
      expectation: .pass)
  }

  // MARK: - Lock-order inversion

  private static var transfersInOppositeOrders: Target {
    Target(
      Exploration("TransfersInOppositeOrders") {
        let checking = LedgerAccount(balance: 100)
        let savings = LedgerAccount(balance: 100)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
          SourceFirstTransfer.move(10, from: checking, to: savings)
        }
        DispatchQueue.global().async(group: group) {
          SourceFirstTransfer.move(20, from: savings, to: checking)
        }
        group.wait()
        #expect(checking.balance + savings.balance == 200)
      },
      summary: "two transfers in opposite directions, each locking its source account first",
      expectation: .fail(.lockOrderInversion))
  }

  private static var transfersInOneOrder: Target {
    Target(
      Exploration("TransfersInOneOrder") {
        let checking = LedgerAccount(balance: 100)
        let savings = LedgerAccount(balance: 100)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
          OrderedTransfer.move(10, from: checking, to: savings)
        }
        DispatchQueue.global().async(group: group) {
          OrderedTransfer.move(20, from: savings, to: checking)
        }
        group.wait()
        #expect(checking.balance == 110 && savings.balance == 90)
      },
      summary: "TransfersInOppositeOrders fixed: both lock the two accounts in one order",
      expectation: .pass)
  }

  // MARK: - A lost wakeup

  private static var handoffSignalledTooEarly: Target {
    Target(
      Exploration("HandoffSignalledTooEarly") {
        let handoff = ResultHandoff()
        DispatchQueue.global().async { handoff.deliver(7) }
        #expect(handoff.awaitResult() == 7)
      },
      summary: "an NSCondition waited on with no predicate: a delivery before the wait is lost",
      expectation: .fail(.lostWakeup))
  }

  private static var handoffCheckedBeforeWaiting: Target {
    Target(
      Exploration("HandoffCheckedBeforeWaiting") {
        let handoff = CheckedResultHandoff()
        DispatchQueue.global().async { handoff.deliver(7) }
        #expect(handoff.awaitResult() == 7)
      },
      summary: "HandoffSignalledTooEarly fixed: the wait loops while no result is there",
      expectation: .pass)
  }

  // MARK: - A view model test that asserts before its task has run

  private static var profileAssertedAfterAYield: Target {
    Target(
      Exploration("ProfileAssertedAfterAYield") { @MainActor in
        let model = ProfileViewModel()
        model.onAppear()
        await Task.yield()
        #expect(model.name == "Ada")
      },
      summary:
        "a @MainActor view model test that yields once and hopes the load it started is done",
      expectation: .fail(.unclassified))
  }

  private static var profileAssertedAfterTheLoad: Target {
    Target(
      Exploration("ProfileAssertedAfterTheLoad") { @MainActor in
        let model = ProfileViewModel()
        model.onAppear()
        await model.loading?.value
        #expect(model.name == "Ada")
      },
      summary: "ProfileAssertedAfterAYield fixed: the test awaits the load's task",
      expectation: .pass)
  }

  // MARK: - A cancellation checked before an await and not after

  private static var staleSearchShown: Target {
    Target(
      Exploration("StaleSearchShown") { @MainActor in
        let model = SearchModel()
        let first = model.search("sw")
        await Task.yield()  // the user types on
        let second = model.search("swift")
        await first.value
        await second.value
        #expect(model.results == ["swift result"])
      },
      summary: "search-as-you-type whose cancelled search still shows its results after its fetch",
      expectation: .fail(.unclassified))
  }

  private static var staleSearchDropped: Target {
    Target(
      Exploration("StaleSearchDropped") { @MainActor in
        let model = CancellationCheckingSearchModel()
        let first = model.search("sw")
        await Task.yield()  // the user types on
        let second = model.search("swift")
        await first.value
        await second.value
        #expect(model.results == ["swift result"])
      },
      summary: "StaleSearchShown fixed: the search checks for cancellation again after its fetch",
      expectation: .pass)
  }

  // MARK: - A timeout that races the completion

  private static var completedByResponseAndTimeout: Target {
    Target(
      Exploration("CompletedByResponseAndTimeout") {
        let calls = CompletionCount()
        let done = DispatchSemaphore(value: 0)
        TimedProfileLoader().load(timeout: .seconds(5)) { _ in
          let count = calls.increment()
          #expect(count == 1, "the completion handler ran \(count) times")
          done.signal()
        }
        done.wait()
      },
      summary:
        "a load whose 5 s timeout (asyncAfter) and response both call the completion handler",
      expectation: .fail(.unclassified))
  }

  private static var completedOnce: Target {
    Target(
      Exploration("CompletedOnce") {
        let calls = CompletionCount()
        let done = DispatchSemaphore(value: 0)
        OnceTimedProfileLoader().load(timeout: .seconds(5)) { _ in
          let count = calls.increment()
          #expect(count == 1, "the completion handler ran \(count) times")
          done.signal()
        }
        done.wait()
      },
      summary: "CompletedByResponseAndTimeout fixed: the first of the two completes, once",
      expectation: .pass)
  }
}
