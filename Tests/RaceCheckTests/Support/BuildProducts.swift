import Foundation
import Testing

/// The executables `swift build` puts beside the test bundle.
enum BuildProducts {
  /// The built product `name` in the build products folder, where the test bundle itself runs from.
  static func path(of name: String) throws -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    try #require(length > 0, "cannot read /proc/self/exe")
    let executable = String(
      decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let folder = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
    let path = String(folder) + "/" + name
    try #require(access(path, X_OK) == 0, "\(path) is missing: run `swift build` first")
    return path
  }
}
