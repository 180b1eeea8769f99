import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A POSIX thread running one closure, which its owner joins exactly once so that stopping waits for it to end.
///
/// Foundation's `Thread` cannot be joined; ``HTTPServer/stop()`` promises that no thread of
/// the server is left, so it joins each one.
struct JoinableThread: Sendable {
  private let handle: pthread_t

  /// Starts a thread named `name` (the system keeps its first 15 bytes) that runs `body`.
  init(name: String, _ body: @escaping @Sendable () -> Void) throws(HTTPServerError) {
    final class Body {
      let run: @Sendable () -> Void
      init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(
      Body {
        // Foundation names the system's thread too, which is what a debugger and /proc show.
        Thread.current.name = String(name.utf8.prefix(15)) ?? "thread"
        body()
      }
    ).toOpaque()
    var handle = pthread_t()
    let result = pthread_create(
      &handle, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      throw .systemCall("pthread_create", errno: result)
    }
    self.handle = handle
  }

  /// Waits for the thread to end; call it once.
  func join() {
    _ = pthread_join(handle, nil)
  }
}
