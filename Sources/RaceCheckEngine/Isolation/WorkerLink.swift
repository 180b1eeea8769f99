import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child's side of an isolated check: announces each scenario to the parent and keeps the flight recorder current.
///
/// Messages are JSON lines on descriptor ``WorkerJob/messagesDescriptor``; the recorder's
/// scenario number is the announcement's sequence number, so that after a crash the parent
/// knows which invocation was running and which calls each thread had in flight.
package final class WorkerLink: RunObserver, Sendable {
  /// The shared-memory record of what is in flight.
  package let recorder: FlightRecorder
  private let messages: Int32
  /// The last scenario's sequence number, -1 before the first.
  private let sequence = Mutex(-1)

  /// Creates the link over the descriptors the parent passed down.
  package init(recorder: FlightRecorder, messages: Int32) {
    self.recorder = recorder
    self.messages = messages
  }

  package func scenarioStarts(_ scenario: Scenario) -> Int {
    let next = sequence.withLock { sequence in
      sequence += 1
      return sequence
    }
    send(.scenario(sequence: next, scenario: scenario))
    return next
  }

  package func invocationStarts(scenario sequence: Int, invocation: Int) {
    recorder.beginInvocation(scenario: sequence, invocation: invocation)
  }

  package func threadStarts(_ thread: Int) {
    recorder.registerThread(thread)
    try? CrashCapture.prepareThread()
  }

  package func operationStarts(thread: Int, index: Int) {
    recorder.beginOperation(thread: thread, index: index)
  }

  package func operationEnds(thread: Int) {
    recorder.endOperation(thread: thread)
  }

  package func traced(_ event: InterleavingTrace.Event) {
    send(.trace(event))
  }

  /// Sends one message as a JSON line.
  func send(_ message: WorkerMessage) {
    guard var line = try? JSONEncoder().encode(message) else { return }
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(messages, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

/// A message from an isolated child to its parent.
enum WorkerMessage: Codable, Sendable {
  /// The scenario with this sequence number runs next.
  case scenario(sequence: Int, scenario: Scenario)
  /// A change to the trace of the schedule the request asked to trace.
  case trace(InterleavingTrace.Event)
  /// The request was served with this result.
  case result(RunResult)
  /// The request could not be served.
  case failed(RunError)
}
