import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child's side of an isolated check: announces each scenario to the parent and keeps the flight recorder current.
///
/// Announcements are JSON lines on descriptor ``WorkerJob/messagesDescriptor``; the
/// recorder's scenario number is the announcement's sequence number, so that after a
/// crash the parent knows exactly which scenario (generated or a shrinking candidate)
/// was running, and which of its calls each thread had in flight.
package final class WorkerLink: @unchecked Sendable {
  /// The shared-memory record of what is in flight.
  package let recorder: FlightRecorder
  private let messages: Int32
  private var sequence = -1

  /// Creates the link over the descriptors the parent passed down.
  package init(recorder: FlightRecorder, messages: Int32) {
    self.recorder = recorder
    self.messages = messages
  }

  /// Tells the parent that `scenario` runs next, and returns its sequence number.
  func announce(_ scenario: Scenario) -> Int {
    sequence += 1
    send(.scenario(sequence: sequence, scenario: scenario))
    return sequence
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
package enum WorkerMessage: Codable, Sendable {
  /// The scenario with this sequence number runs next.
  case scenario(sequence: Int, scenario: Scenario)
  /// The check finished with this report.
  case report(CheckReport)
  /// A change to the trace of the schedule the job asked to trace.
  case trace(InterleavingTrace.Event)
}

extension WorkerMessage {
  /// The messages in `bytes`, one per complete line; a line cut off by a crash, or garbage, is skipped.
  static func parse(_ bytes: [UInt8]) -> [WorkerMessage] {
    let decoder = JSONDecoder()
    return bytes.split(separator: UInt8(ascii: "\n")).compactMap {
      try? decoder.decode(WorkerMessage.self, from: Data($0))
    }
  }
}
