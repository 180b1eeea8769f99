import CachedStoreExample
import Foundation
import Testing

extension RaceCheckTestSuite {
  /// The example service of a read-through cache, over real HTTP on 127.0.0.1: its server, its client and the race in its racy variant.
  ///
  /// The race is forced through the store's test hooks, which hold a read or a write at the
  /// step where the two race until the test lets it go: no sleeps, no timing.
  @Suite(.timeLimit(.minutes(2))) struct CachedStoreServiceTests {
    @Test func aPutValueIsReadBackOverHTTP() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start())
      defer { service.stop() }
      try await client.put("x", "1")
      #expect(try await client.get("x") == "1")
      try await client.put("x", "two words")
      #expect(try await client.get("x") == "two words")
    }

    @Test func keysAndValuesKeepEveryCharacter() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start())
      defer { service.stop() }
      let key = "a/b c?d%e#ü"
      try await client.put(key, "ĉu\r\n✓")
      #expect(try await client.get(key) == "ĉu\r\n✓")
      #expect(try await client.get("a") == "")
    }

    /// A body over 1 KiB, which some versions of libcurl send only after `100 Continue`.
    @Test func aLargeValueIsReadBack() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start())
      defer { service.stop() }
      let value = String(repeating: "0123456789", count: 50_000)
      try await client.put("large", value)
      #expect(try await client.get("large") == value)
    }

    @Test func anAbsentKeyReadsAsTheEmptyString() async throws {
      let service = CachedStoreService(variant: .racyInvalidation)
      let client = CachedStoreClient(port: try service.start())
      defer { service.stop() }
      #expect(try await client.get("never written") == "")
    }

    @Test func anUnknownPathIsAnUnexpectedStatus() async throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      defer { service.stop() }
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "DELETE /keys/x HTTP/1.1\r\nHost: a\r\n\r\nGET /other HTTP/1.1\r\nHost: a\r\n\r\n")
      #expect(try connection.response()?.status == "HTTP/1.1 405 Method Not Allowed")
      #expect(try connection.response()?.status == "HTTP/1.1 404 Not Found")
    }

    @Test(arguments: [
      ("NOT A REQUEST\r\n\r\n", "400"),
      ("GET /keys/x HTTP/1.1\r\n\r\n", "400"),
      ("GET /keys/x HTTP/1.1\r\nHost a\r\n\r\n", "400"),
      ("GET /keys/x HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", "400"),
      ("PUT /keys/x HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", "400"),
      (
        "PUT /keys/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "400"
      ),
      (
        "PUT /keys/x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n",
        "501"
      ),
      ("GET /keys/x HTTP/2.0\r\nHost: a\r\n\r\n", "505"),
      ("PUT /keys/x HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\n", "413"),
    ])
    func aMalformedRequestIsRefusedAndTheServerServesOn(request: String, status: String) throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      defer { service.stop() }
      let refused = try RawHTTPConnection(port: port)
      try refused.send(request)
      #expect(try refused.response()?.status.hasPrefix("HTTP/1.1 \(status) ") == true)
      // The position in the stream is lost after a malformed request, so the server closes.
      #expect(try refused.isClosedByServer())
      let next = try RawHTTPConnection(port: port)
      try next.send("PUT /keys/x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok")
      #expect(try next.response()?.status == "HTTP/1.1 204 No Content")
      try next.send("GET /keys/x HTTP/1.1\r\nHost: a\r\n\r\n")
      #expect(try next.response()?.body == "ok")
    }

    @Test func aHeadOverItsLimitIsRefused() throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      defer { service.stop() }
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "GET /keys/x HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 20_000))
      #expect(try connection.response()?.status == "HTTP/1.1 431 Request Header Fields Too Large")
    }

    @Test func pipelinedAndSplitRequestsAreAnsweredInOrderOnOneConnection() throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      defer { service.stop() }
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "PUT /keys/k HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n1"
          + "GET /keys/k HTTP/1.1\r\nHost: a\r\n\r\nPUT /keys/k HTTP/1.1\r\nHo")
      try connection.send("st: a\r\nContent-Length: 2\r\n\r\n2")
      try connection.send("2GET /keys/k HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      #expect(try connection.response()?.status == "HTTP/1.1 204 No Content")
      #expect(try connection.response()?.body == "1")
      #expect(try connection.response()?.status == "HTTP/1.1 204 No Content")
      #expect(try connection.response()?.body == "22")
      #expect(try connection.isClosedByServer())
    }

    @Test func aBodyAfterExpectContinueIsReadAfterTheInterimResponse() throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      defer { service.stop() }
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "PUT /keys/k HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
      #expect(try connection.response()?.status == "HTTP/1.1 100 Continue")
      try connection.send("abc")
      #expect(try connection.response()?.status == "HTTP/1.1 204 No Content")
      #expect(service.store.storedValue(for: "k") == "abc")
    }

    /// A read that misses, reads the old value and is held before its fill while a write runs whole.
    ///
    /// The racy variant then fills the cache with the old value, which every later read
    /// returns; the correct one refuses the fill, its lease voided by the write.
    @Test(arguments: [
      (CachedStore.Variant.racyInvalidation, "old"), (CachedStore.Variant.correct, "new"),
    ])
    func aWriteBetweenAReadsStoreReadAndItsFill(
      variant: CachedStore.Variant, laterReads: String
    ) async throws {
      let service = CachedStoreService(variant: variant)
      let client = CachedStoreClient(port: try service.start())
      let held = HookGate()
      defer {
        held.open()
        service.stop()
      }
      // A write leaves the key uncached in both variants, so the next read misses.
      try await client.put("k", "old")
      service.store.setTestHooks(.init(afterStoreRead: held.hold))
      async let read = client.get("k")
      #expect(await held.arrival() == "old")
      try await client.put("k", "new")
      held.open()
      // The held read overlaps the write, so either value is right for it.
      #expect(try await read == "old")
      for _ in 0..<3 { #expect(try await client.get("k") == laterReads) }
      #expect(service.store.cachedValue(for: "k") == laterReads)
      #expect(service.store.storedValue(for: "k") == "new")
    }

    /// While a write is between its store write and its end, a read that misses returns the new value, and a read after it must too.
    ///
    /// A read that leased before the write and fills after the write's store write would put
    /// the old value back: the racy variant lets it, and the correct one voids the lease when
    /// the write begins, before its store write (invalidating only at the end is not enough).
    @Test(arguments: [
      (CachedStore.Variant.racyInvalidation, "old"), (CachedStore.Variant.correct, "new"),
    ])
    func aReadAfterOneThatSawAWriteUnderWaySeesItToo(
      variant: CachedStore.Variant, secondRead: String
    ) async throws {
      let service = CachedStoreService(variant: variant)
      let client = CachedStoreClient(port: try service.start())
      let heldRead = HookGate()
      let heldWrite = HookGate()
      defer {
        heldRead.open()
        heldWrite.open()
        service.stop()
      }
      try await client.put("k", "old")
      service.store.setTestHooks(
        .init(afterStoreRead: heldRead.hold, afterStoreWrite: heldWrite.hold))
      async let staleRead = client.get("k")
      #expect(await heldRead.arrival() == "old")
      async let write: Void = client.put("k", "new")
      #expect(await heldWrite.arrival() == "new")
      // The write is under way, its store write done: a read that misses sees the new value.
      #expect(try await client.get("k") == "new")
      heldRead.open()
      #expect(try await staleRead == "old")
      // The first read returned "new" before this one was called, and no write of "old" runs.
      #expect(try await client.get("k") == secondRead)
      heldWrite.open()
      try await write
      #expect(try await client.get("k") == "new")
    }

    @Test func stopClosesTheListenerAndEndsEveryThread() async throws {
      let service = CachedStoreService(variant: .correct)
      let port = try service.start()
      let client = CachedStoreClient(port: port)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<8 { group.addTask { try await client.put("k\(index)", "v") } }
        try await group.waitForAll()
      }
      // A connection kept alive after its request: its thread is blocked reading the next one.
      let idle = try RawHTTPConnection(port: port)
      try idle.send("GET /keys/k0 HTTP/1.1\r\nHost: a\r\n\r\n")
      #expect(try idle.response()?.body == "v")
      #expect(service.server.openConnectionCount > 0)
      service.stop()
      #expect(try idle.isClosedByServer())
      #expect(RawHTTPConnection.isRefused(port: port))
      #expect(service.port == nil)
      #expect(service.server.unjoinedThreadCount == 0)
      #expect(service.server.openConnectionCount == 0)
      #expect(try Self.threadNames().allSatisfy { !$0.hasPrefix("cachedstore") })
      service.stop()
      #expect(throws: HTTPServerError.stopped) { try service.start() }
    }

    @Test func droppingARunningServiceStopsIt() throws {
      var service: CachedStoreService? = CachedStoreService(variant: .correct)
      let port = try service!.start()
      // Answered, so accepted: a connection still in the listener's backlog is reset instead.
      let connection = try RawHTTPConnection(port: port)
      try connection.send("GET /keys/k HTTP/1.1\r\nHost: a\r\n\r\n")
      #expect(try connection.response()?.status == "HTTP/1.1 200 OK")
      service = nil
      #expect(try connection.isClosedByServer())
      #expect(RawHTTPConnection.isRefused(port: port))
    }

    @Test func stopWaitsForARequestUnderWay() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start(), timeout: .seconds(60))
      let held = HookGate()
      defer { held.open() }
      service.store.setTestHooks(.init(afterStoreRead: held.hold))
      async let read = client.get("k")
      _ = await held.arrival()
      // stop() blocks until the held handler returns, so it runs on a thread of its own, and
      // the gate opens whether or not it has begun: it must wait either way.
      await withCheckedContinuation { stopped in
        Thread {
          service.stop()
          stopped.resume()
        }.start()
        held.open()
      }
      #expect(held.hasPassed)
      #expect(service.server.unjoinedThreadCount == 0)
      // Whether the response went out before its socket was shut down is a race: ignore it.
      _ = try? await read
    }

    @Test func aResponseLaterThanTheTimeoutIsATimeout() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start(), timeout: .milliseconds(500))
      let held = HookGate()
      defer {
        held.open()
        service.stop()
      }
      service.store.setTestHooks(.init(afterStoreRead: held.hold))
      let read = Task { try await client.get("k") }
      // The service holds the read until the test ends, so the client gives up first.
      #expect(await held.arrival() == "")
      await #expect(
        throws: CachedStoreClientError.timedOut(request: "GET k", after: .milliseconds(500))
      ) {
        try await read.value
      }
    }

    @Test func aRequestToAStoppedServiceIsAConnectionFailure() async throws {
      let service = CachedStoreService(variant: .correct)
      let client = CachedStoreClient(port: try service.start())
      service.stop()
      await #expect {
        try await client.get("k")
      } throws: { error in
        guard case .connectionFailed(let request, _) = error as? CachedStoreClientError else {
          return false
        }
        return request == "GET k"
      }
    }

    /// The names of this process's threads, as the system knows them.
    static func threadNames() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
        try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
      }
    }
  }
}
