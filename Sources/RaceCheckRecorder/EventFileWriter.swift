import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The background thread that takes the log's events in batches, encodes them as lines and appends them to the file.
///
/// It wakes every ``interval`` and at once again after a batch of ``largeBatch`` or more, so
/// that a burst does not pile up; the calling threads never wait for it or signal it. The
/// file is opened for appending and synced only by ``finish()``: a process killed mid-run
/// leaves what the kernel was given, up to one interval's events and perhaps a last line cut
/// short, which the reader ignores.
final class EventFileWriter: Sendable {
  /// How long the thread sleeps between batches: the events a crash can lose are about this old.
  static let interval: Duration = .milliseconds(2)
  /// A batch at least this large is followed by the next one at once.
  static let largeBatch = 4096
  /// Encoded bytes are written once they reach this size.
  static let chunkBytes = 1 << 16

  /// The file's side of the writer: the descriptor and the buffers reused from batch to batch.
  private struct Output {
    var descriptor: Int32
    /// The events taken from each shard, reused from batch to batch.
    var batches: [[RecordedEvent]] = []
    let writer = JSONLineWriter(capacity: EventFileWriter.chunkBytes + 4096)
    /// The first write that failed; later batches are dropped.
    var failure: RecordedHistory.Recorder.RecordingError?
  }

  let path: String
  private let log: EventLog
  private let output: Mutex<Output>
  private let isStopping = Atomic<Bool>(false)
  private let wake = DispatchSemaphore(value: 0)
  private let stopped = DispatchSemaphore(value: 0)

  /// Creates (or empties) the file at `path`, writes `header` before returning, and starts the thread.
  init(path: String, header: [UInt8], log: EventLog)
    throws(RecordedHistory.Recorder.RecordingError)
  {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: Self.reason(errno)) }
    if let problem = header.withUnsafeBytes({ Self.writeAll($0, to: descriptor) }) {
      close(descriptor)
      throw .cannotOpen(path: path, reason: problem)
    }
    self.path = path
    self.log = log
    var output = Output(descriptor: descriptor)
    output.batches = Array(
      repeating: {
        var events: [RecordedEvent] = []
        events.reserveCapacity(EventLog.initialCapacity)
        return events
      }(),
      count: EventLog.shardCount)
    self.output = Mutex(output)
    let thread = Thread { [self] in run() }
    thread.name = "racecheck-recorder"
    thread.start()
  }

  /// The thread's loop: a batch, then a sleep unless the batch was large, until ``finish()``.
  private func run() {
    while !isStopping.load(ordering: .acquiring) {
      if drain() < Self.largeBatch {
        _ = wake.wait(timeout: .now() + Self.interval.dispatchInterval)
      }
    }
    stopped.signal()
  }

  /// Writes every event appended so far and returns how many; the thread, ``flush()`` and ``finish()`` call it in turn.
  @discardableResult
  func drain() -> Int {
    output.withLock { output in
      guard output.descriptor >= 0 else { return 0 }
      let positions = log.take(into: &output.batches)
      guard !positions.isEmpty else { return 0 }
      if output.failure == nil {
        let writer = output.writer
        for position in positions {
          output.batches[position.shard][position.index].appendLine(to: writer)
          if writer.count >= Self.chunkBytes {
            writeBytes(writer, &output.failure, output.descriptor)
          }
        }
        writeBytes(writer, &output.failure, output.descriptor)
      }
      // Freed here, on this thread: what the events hold is released off the callers' threads.
      for index in output.batches.indices { output.batches[index].removeAll(keepingCapacity: true) }
      output.writer.removeAll()
      return positions.count
    }
  }

  /// Stops the thread, writes what is left, syncs and closes the file; throws the first failed write.
  ///
  /// Later calls do nothing more.
  func finish() throws(RecordedHistory.Recorder.RecordingError) {
    if !isStopping.exchange(true, ordering: .acquiringAndReleasing) {
      wake.signal()
      stopped.wait()
    }
    drain()
    let failure = output.withLock { output -> RecordedHistory.Recorder.RecordingError? in
      if output.descriptor >= 0 {
        if output.failure == nil && fsync(output.descriptor) != 0 {
          output.failure = .writeFailed(path: path, reason: Self.reason(errno))
        }
        close(output.descriptor)
        output.descriptor = -1
      }
      return output.failure
    }
    if let failure { throw failure }
  }

  /// Writes the encoded bytes, keeping the first failure.
  private func writeBytes(
    _ writer: JSONLineWriter, _ failure: inout RecordedHistory.Recorder.RecordingError?,
    _ descriptor: Int32
  ) {
    guard writer.count > 0, failure == nil else { return }
    if let problem = writer.withBytes({ Self.writeAll($0, to: descriptor) }) {
      failure = .writeFailed(path: path, reason: problem)
    }
    writer.removeAll()
  }

  /// Writes all of `bytes`, through short writes and interruptions; the reason when it fails.
  private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return reason(errno)
      }
      offset += written
    }
    return nil
  }

  /// The system's message for `code`.
  private static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
