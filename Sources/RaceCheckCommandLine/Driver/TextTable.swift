import RaceCheckEngine

/// Left-aligned columns separated by two spaces, for `list`, `demo` and `bench`.
struct TextTable {
  /// The widest cell of each column, header included.
  var widths: [Int]

  /// Sizes the columns to fit `rows`, the header among them.
  init(fitting rows: [[String]]) {
    let columns = rows.map(\.count).max() ?? 0
    widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
  }

  /// Sizes the columns to fixed widths, so that rows can be printed as they are produced.
  init(widths: [Int]) {
    self.widths = widths
  }

  /// One row, each cell padded to its column's width except the last, which would only add trailing spaces.
  func line(_ cells: [String]) -> String {
    var text = ""
    for (column, cell) in cells.enumerated() {
      if column == cells.count - 1 {
        text += cell
      } else {
        let width = column < widths.count ? widths[column] : cell.count
        text += cell + String(repeating: " ", count: max(0, width - cell.count)) + "  "
      }
    }
    return text
  }

  /// Every row, for a table known in full.
  static func render(_ rows: [[String]]) -> [String] {
    let table = TextTable(fitting: rows)
    return rows.map(table.line)
  }
}
