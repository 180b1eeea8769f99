import CRaceCheckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pipe a child writes its crash and stack records to, read by the parent with a deadline.
///
/// Both ends are close-on-exec; pass ``writeEnd`` to ``ChildProcess/spawn(executable:arguments:environment:fileDescriptors:)``
/// and then call ``closeWriteEnd()`` so that the parent sees end-of-file when the child dies.
package final class ReportPipe: @unchecked Sendable {
  // @unchecked Sendable: `writeEnd` is cleared only before the spawner shares the pipe.
  /// The end the parent reads.
  package let readEnd: Int32
  /// The end the child writes, or -1 once the parent closed its copy.
  package private(set) var writeEnd: Int32

  /// Opens a new pipe.
  package init() throws(SystemCallError) {
    var ends: [Int32] = [-1, -1]
    guard rc_pipe_cloexec(&ends) == 0 else { throw .fromErrno("pipe2") }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Closes the parent's copy of the write end, so reading ends when the child's copy closes.
  package func closeWriteEnd() {
    if writeEnd >= 0 { close(writeEnd) }
    writeEnd = -1
  }

  /// Reads until end-of-file, until `isEnough` holds for everything read so far, or until
  /// `timeout` has passed; returns what was read and whether end-of-file was reached.
  package func read(
    timeout: Duration, until isEnough: ([UInt8]) -> Bool = { _ in false }
  ) throws(SystemCallError) -> (bytes: [UInt8], reachedEnd: Bool) {
    let deadline = Deadline.after(timeout)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let remaining = deadline.timeLeft ?? .zero
      if remaining <= .zero { return (bytes, false) }
      var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      // poll(2) takes whole milliseconds.
      let ready = Glibc.poll(&request, 1, remaining.wholeMillisecondsRoundedUp)
      if ready < 0 {
        guard errno == EINTR else { throw .fromErrno("poll") }
        continue
      }
      if ready == 0 { continue }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
      if count < 0 {
        guard errno == EINTR || errno == EAGAIN else { throw .fromErrno("read") }
        continue
      }
      if count == 0 { return (bytes, true) }
      bytes.append(contentsOf: chunk[..<count])
      if isEnough(bytes) { return (bytes, false) }
    }
  }

  /// Reads whatever is in the pipe now, without waiting.
  ///
  /// Stops after 64 KiB, so that a child writing without pause cannot keep the caller here.
  package func readAvailable() throws(SystemCallError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < chunk.count {
      var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&request, 1, 0)
      if ready < 0 {
        guard errno == EINTR else { throw .fromErrno("poll") }
        continue
      }
      guard ready > 0 else { return bytes }
      let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
      if count < 0 {
        guard errno == EINTR || errno == EAGAIN else { throw .fromErrno("read") }
        continue
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
  }
}
