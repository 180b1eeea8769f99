// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "racecheck",
  products: [
    .library(name: "RaceCheck", targets: ["RaceCheck"]),
    .executable(name: "racecheck", targets: ["racecheck"]),
  ],
  targets: [
    .target(name: "RaceCheck"),
    .target(name: "Fixtures", dependencies: ["RaceCheck"], path: "Fixtures"),
    .executableTarget(name: "racecheck", dependencies: ["RaceCheck", "Fixtures"]),
    .testTarget(name: "RaceCheckTests", dependencies: ["RaceCheck", "Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
