// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "racecheck",
  products: [
    .library(name: "RaceCheck", targets: ["RaceCheck"]),
    .library(name: "RaceCheckHistory", targets: ["RaceCheckHistory"]),
    .library(name: "RaceCheckRecorder", targets: ["RaceCheckRecorder"]),
    .library(name: "RaceCheckSync", targets: ["RaceCheckSync"]),
    .executable(name: "racecheck", targets: ["racecheck"]),
  ],
  targets: [
    .systemLibrary(
      name: "CUnwind", path: "Sources/CUnwind", pkgConfig: "libunwind",
      providers: [.apt(["libunwind-dev"])]),
    .target(
      name: "CRaceCheckSupport", dependencies: ["CUnwind", "CRaceCheckInterposer"],
      path: "Sources/CRaceCheckSupport",
      cSettings: [.define("_GNU_SOURCE")]),
    .target(
      name: "CRaceCheckInterposer", path: "Sources/CRaceCheckInterposer",
      cSettings: [.define("_GNU_SOURCE")]),
    .target(name: "RaceCheckSync"),
    // The layers depend one way, and the compiler keeps them apart:
    //   RaceCheckHistory ← RaceCheckEngine ← RaceCheckCommandLine
    // RaceCheckHistory (values, history files, models, the linearizability checker) runs no threads
    // and needs nothing else, so a user who only checks recorded histories links it alone. The
    // engine (specs, runners, scheduler, diagnoses, reports) re-exports it. The command line (its
    // commands, the HTML and JUnit reports, benchmarks) sits on top. `RaceCheck` imports all three
    // for users; inside the package, a module names only the layers below it.
    // RaceCheckRecorder (a service's recorder of its calls) stands on RaceCheckHistory alone.
    .target(name: "RaceCheckHistory"),
    .target(name: "RaceCheckRecorder", dependencies: ["RaceCheckHistory"]),
    .target(
      name: "RaceCheckEngine",
      dependencies: [
        "RaceCheckHistory", "CRaceCheckSupport", "CRaceCheckInterposer", "RaceCheckSync",
      ]),
    .target(
      name: "RaceCheckCommandLine", dependencies: ["RaceCheckEngine", "RaceCheckRecorder"],
      // The HTML report's style sheet and script, compiled into the module as byte arrays
      // (`PackageResources`) rather than copied into a bundle: racecheck, and a user's own
      // executable that runs the driver, write the page with nothing beside the binary.
      resources: [
        .embedInCode("HTML/Resources/report.css"), .embedInCode("HTML/Resources/report.js"),
      ]),
    .target(
      name: "RaceCheck",
      dependencies: ["RaceCheckHistory", "RaceCheckEngine", "RaceCheckCommandLine"]),
    .target(
      name: "Fixtures", dependencies: ["RaceCheck"], path: "Fixtures",
      // An optimized build drops the exclusivity checks of private properties it proves never
      // overlap on one thread, and schedule mode sees stored state only through them: keep them.
      swiftSettings: [.unsafeFlags(["-Xllvm", "-sil-disable-pass=access-enforcement-wmo"])]),
    .executableTarget(
      name: "racecheck",
      dependencies: ["RaceCheckCommandLine", "Fixtures", "CachedStoreExample", "EtcdExample"]),
    .executableTarget(
      name: "racecheck-probe", dependencies: ["RaceCheckEngine", "RaceCheckRecorder"]),
    // The examples of checking a running service (`racecheck workload`): an HTTP key-value
    // service with a read-through cache, correct and racy; a cluster of real etcd processes on
    // loopback, with faults, and a client of its JSON gateway.
    .target(name: "CachedStoreExample", dependencies: ["RaceCheck"], path: "Examples/CachedStore"),
    .target(name: "EtcdExample", dependencies: ["RaceCheck"], path: "Examples/Etcd"),
    // Two test targets: the unit tests (no code under test on real threads or under the
    // scheduler) run in parallel, the checks of real code one at a time; `swift test` runs both.
    .target(
      name: "RaceCheckTestSupport", dependencies: ["RaceCheck", "Fixtures"],
      path: "Tests/RaceCheckTestSupport"),
    // C programs whose plain loads and stores racecheck sees, as a user's C target would be built.
    .target(
      name: "CTracedMemoryFixtures", path: "Tests/CTracedMemoryFixtures",
      cSettings: [.unsafeFlags(["-fsanitize-coverage=func,trace-pc,trace-loads,trace-stores"])]),
    .testTarget(
      name: "RaceCheckUnitTests",
      dependencies: [
        "RaceCheckHistory", "RaceCheckRecorder", "RaceCheckEngine", "RaceCheckCommandLine",
        "RaceCheck", "RaceCheckTestSupport", "Fixtures",
      ]),
    .testTarget(
      name: "RaceCheckTests",
      dependencies: [
        "RaceCheckHistory", "RaceCheckRecorder", "RaceCheckEngine", "RaceCheckCommandLine",
        "RaceCheck", "RaceCheckSync", "RaceCheckTestSupport", "Fixtures", "CachedStoreExample",
        "EtcdExample", "CTracedMemoryFixtures",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
