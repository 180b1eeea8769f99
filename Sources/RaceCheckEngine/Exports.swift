// A spec's model and values (`DictionaryModel`, `Value`, …) live in RaceCheckHistory, the module
// that checks recorded histories without running anything; `import RaceCheck` brings them along.
@_exported import RaceCheckHistory
