import CRaceCheckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn`, with chosen descriptors passed down to it.
///
/// `posix_spawn` costs about 11 ms here against about 53 ms for `Foundation.Process`, and it can
/// hand the child exactly the descriptors it needs (the report pipe, the flight recorder) at
/// fixed numbers while closing every other one.
///
/// ```swift
/// let child = try ChildProcess.spawn(executable: path, arguments: ["hang"],
///                                    fileDescriptors: [3: pipe.writeEnd, 4: recorder.fileDescriptor])
/// let termination = try child.wait()
/// ```
package struct ChildProcess: Hashable, Sendable {
  /// The child's process id.
  package let id: pid_t

  /// How a child process ended.
  package enum Termination: Hashable, Sendable {
    /// The child exited with this status.
    case exited(Int32)
    /// The child was killed by this signal.
    case signaled(Int32)
  }

  /// What a child inherits from the thread that starts it, besides its descriptors: the environment and the signals that thread blocks.
  ///
  /// Taken on the asking thread: a child started later, or from another thread, on its behalf
  /// (a spare worker) inherits what one started there and then would.
  package struct Inheritance: Hashable, Sendable {
    /// The child's whole environment, as `NAME=value` entries in name order.
    package var environment: [String]
    /// The signals blocked in the child, as the words of a `sigset_t`.
    package var blockedSignals: [UInt]

    /// What a child started now from the calling thread inherits, with `environment`'s entries added to (or replacing) this process's.
    package static func current(adding environment: [String: String]) -> Inheritance {
      var merged: [String: String] = [:]
      var entry = environ
      while let pointer = entry.pointee {
        let line = String(cString: pointer)
        if let equals = line.firstIndex(of: "=") {
          merged[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        entry += 1
      }
      merged.merge(environment) { _, new in new }
      if let profile = merged[ChildProcess.profileFileKey] {
        merged[ChildProcess.profileFileKey] = ChildProcess.childProfileFile(forParent: profile)
      }
      var mask = sigset_t()
      pthread_sigmask(SIG_BLOCK, nil, &mask)
      return Inheritance(
        environment: merged.map { "\($0.key)=\($0.value)" }.sorted(),
        blockedSignals: withUnsafeBytes(of: mask) { Array($0.bindMemory(to: UInt.self)) })
    }

    /// The blocked signals as a `sigset_t`.
    fileprivate var signalMask: sigset_t {
      var mask = sigset_t()
      withUnsafeMutableBytes(of: &mask) { bytes in
        for (index, word) in blockedSignals.prefix(bytes.count / MemoryLayout<UInt>.size)
          .enumerated()
        {
          bytes.storeBytes(of: word, toByteOffset: index * MemoryLayout<UInt>.size, as: UInt.self)
        }
      }
      return mask
    }
  }

  /// Starts `executable` with `arguments` (not counting `argv[0]`, which is the executable).
  ///
  /// `fileDescriptors` maps a descriptor number in the child to an open descriptor of the parent
  /// (keys from 0 to 63); standard input, output and error not in it are inherited, every other
  /// descriptor is closed in the child. `environment` entries are added to (or replace) the
  /// parent's environment.
  package static func spawn(
    executable: String, arguments: [String] = [], environment: [String: String] = [:],
    fileDescriptors: [Int32: Int32] = [:]
  ) throws(SystemCallError) -> ChildProcess {
    try spawn(
      executable: executable, arguments: arguments,
      inheritance: .current(adding: environment), fileDescriptors: fileDescriptors)
  }

  /// Starts `executable` with `arguments`, the environment and blocked signals of `inheritance`, and `fileDescriptors` as in ``spawn(executable:arguments:environment:fileDescriptors:)``.
  package static func spawn(
    executable: String, arguments: [String], inheritance: Inheritance,
    fileDescriptors: [Int32: Int32]
  ) throws(SystemCallError) -> ChildProcess {
    precondition(fileDescriptors.keys.allSatisfy { (0..<64).contains($0) })
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }

    // Copy every source above 63 first, so that no source is overwritten by an earlier dup2 onto
    // its number, and so that dup2 always changes the number (which clears close-on-exec).
    var copies: [Int32] = []
    defer { for copy in copies { close(copy) } }
    for (target, source) in fileDescriptors.sorted(by: { $0.key < $1.key }) {
      let copy = fcntl(source, F_DUPFD_CLOEXEC, 64)
      guard copy >= 0 else { throw .fromErrno("fcntl F_DUPFD_CLOEXEC") }
      copies.append(copy)
      posix_spawn_file_actions_adddup2(&actions, copy, target)
    }
    let firstClosed = max(3, (fileDescriptors.keys.max() ?? 0) + 1)
    let status = rc_spawn_file_actions_addclosefrom(&actions, firstClosed)
    guard status == 0 else {
      throw SystemCallError("posix_spawn_file_actions_addclosefrom_np", code: status)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = inheritance.signalMask
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

    let argv = [executable] + arguments
    var pid: pid_t = 0
    let result = withCStrings(argv) { argvPointers in
      withCStrings(inheritance.environment) { envpPointers in
        posix_spawn(&pid, executable, &actions, &attributes, argvPointers, envpPointers)
      }
    }
    guard result == 0 else { throw SystemCallError("posix_spawn \(executable)", code: result) }
    return ChildProcess(id: pid)
  }

  /// Waits until the child ends and reaps it.
  package func wait() throws(SystemCallError) -> Termination {
    var status: Int32 = 0
    while waitpid(id, &status, 0) < 0 {
      guard errno == EINTR else { throw .fromErrno("waitpid") }
    }
    return Self.termination(status)
  }

  /// Reaps the child if it has ended, without waiting; nil while it runs.
  package func poll() throws(SystemCallError) -> Termination? {
    var status: Int32 = 0
    let result = waitpid(id, &status, WNOHANG)
    guard result >= 0 else { throw .fromErrno("waitpid") }
    return result == 0 ? nil : Self.termination(status)
  }

  /// Sends `signal` to the child (SIGKILL for a hung one).
  package func kill(_ signal: Int32) throws(SystemCallError) {
    guard Glibc.kill(id, signal) == 0 else { throw .fromErrno("kill") }
  }

  /// Decodes a `waitpid` status (WIFEXITED and WIFSIGNALED are macros Swift cannot import).
  private static func termination(_ status: Int32) -> Termination {
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }

  /// The variable naming where a coverage-instrumented process writes its profile.
  static let profileFileKey = "LLVM_PROFILE_FILE"

  /// Where a child of a coverage-instrumented parent writes its profile: a `children` folder beside the parent's.
  ///
  /// A child killed while it writes its profile at exit (a hang its parent ends) leaves a torn
  /// file, and `swift test --enable-code-coverage` merges every profile in its folder and fails
  /// on one torn file, after every test passed. In a folder of their own the children's profiles
  /// are out of that merge; `Scripts/coverage` adds the whole ones.
  static func childProfileFile(forParent profile: String) -> String {
    guard let slash = profile.lastIndex(of: "/") else { return "children/" + profile }
    let folder = profile[..<slash]
    guard !folder.hasSuffix("/children") else { return profile }
    return folder + "/children" + profile[slash...]
  }
}

/// Calls `body` with a NULL-terminated array of C strings, valid only during the call.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  let pointers = strings.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
