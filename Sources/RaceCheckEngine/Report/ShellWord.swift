/// Words of the commands racecheck prints, written so that a POSIX shell reads them back unchanged.
package enum ShellWord {
  /// `word` bare when it is plain, else in single quotes.
  ///
  /// ```swift
  /// ShellWord.quoted("^Tests\\.check\\(\\)/")  // '^Tests\.check\(\)/'
  /// ```
  package static func quoted(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-_./:=,@+%".unicodeScalars.contains(scalar))
      }
    return plain ? word : "'" + word.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
  }
}
