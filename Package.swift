// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "racecheck",
  products: [
    .library(name: "RaceCheck", targets: ["RaceCheck"]),
    .library(name: "RaceCheckHistory", targets: ["RaceCheckHistory"]),
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
    .target(name: "RaceCheckHistory"),
    .target(
      name: "RaceCheck",
      dependencies: [
        "RaceCheckHistory", "CRaceCheckSupport", "CRaceCheckInterposer", "RaceCheckSync",
      ]),
    .target(
      name: "Fixtures", dependencies: ["RaceCheck"], path: "Fixtures",
      // An optimized build drops the exclusivity checks of private properties it proves never
      // overlap on one thread, and schedule mode sees stored state only through them: keep them.
      swiftSettings: [.unsafeFlags(["-Xllvm", "-sil-disable-pass=access-enforcement-wmo"])]),
    .executableTarget(name: "racecheck", dependencies: ["RaceCheck", "Fixtures"]),
    .executableTarget(name: "racecheck-probe", dependencies: ["RaceCheck"]),
    .testTarget(
      name: "RaceCheckTests",
      dependencies: ["RaceCheckHistory", "RaceCheck", "RaceCheckSync", "Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
