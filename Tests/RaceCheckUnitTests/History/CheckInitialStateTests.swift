import Foundation
import RaceCheck
import Testing

// `racecheck check --initial STATE`: the model's state before the first operation, as
// JSON, winning over the file's own `initial`, split by key like the file's, and
// rejected as a usage error (exit 64) when it is not JSON or not the model's shape.

extension UnitTestSuite {
  @Suite struct CheckInitialStateTests {
    @Test func flagOverridesTheFilesInitialStateAndAppliesToEveryKey() throws {
      // The file starts key "a" at "x", so its reads of "y" and "z" fail; the flag's state explains both.
      let unchanged = try CheckCLI.check(contents: keyValueHistory)
      #expect(unchanged.status == 1)
      let result = try CheckCLI.check(
        contents: keyValueHistory, arguments: ["--initial", #"{"a": "y", "b": "z"}"#, "--json"])
      #expect(result.status == 0)
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.joined().utf8))
          as? [String: Any])
      let parts = try #require(document["parts"] as? [[String: Any]])
      #expect(parts.map { $0["key"] as? String } == ["a", "b"])
      #expect(parts.allSatisfy { $0["verdict"] as? String == "linearizable" })
    }

    @Test func flagStartsAKnossosCASRegisterAtZero() throws {
      // Knossos's tests start the cas-register at 0; its model starts at nil otherwise, as racecheck's does.
      let arguments = ["--format", "jepsen", "--model", "cas-register"]
      #expect(try CheckCLI.check(contents: readsZeroFirst, arguments: arguments).status == 1)
      let result = try CheckCLI.check(
        contents: readsZeroFirst, arguments: arguments + ["--initial", "0"])
      #expect(result.status == 0)
    }

    @Test func nullIsTheModelsDefaultAsInTheFile() throws {
      // The file starts "a" at "x"; null puts it back at the kv model's default, "" for every key.
      let history = keyValueHistory.replacingOccurrences(
        of: #""result": "z""#, with: #""result": """#
      )
      .replacingOccurrences(of: #""result": "y""#, with: #""result": """#)
      #expect(try CheckCLI.check(contents: history).status == 1)
      #expect(try CheckCLI.check(contents: history, arguments: ["--initial", "null"]).status == 0)
    }

    @Test(arguments: [
      (
        ["--initial", "{"],
        "invalid value '{' for '--initial' of 'check': expected the model's state as JSON, "
          + #"such as 0, "x", [1, 2] or {"k": "v"}"#
      ),
      (
        ["--initial", "x"],
        "invalid value 'x' for '--initial' of 'check': expected the model's state as JSON, "
          + #"such as 0, "x", [1, 2] or {"k": "v"}"#
      ),
      (
        ["--initial", "0"],
        "invalid value '0' for '--initial' of 'check': expected an object of strings, "
          + "the kv model's state"
      ),
    ])
    func badStateIsAUsageError(arguments: [String], message: String) throws {
      let result = try CheckCLI.check(contents: keyValueHistory, arguments: arguments)
      #expect(result.status == 64)
      #expect(result.errors.first == "racecheck: " + message)
      #expect(result.output.isEmpty)
    }

    @Test func stateOfTheWrongShapeForTheNamedModelIsAUsageError() throws {
      let result = try CheckCLI.check(
        contents: readsZeroFirst,
        arguments: ["--format", "jepsen", "--model", "counter", "--initial", #""x""#])
      #expect(result.status == 64)
      #expect(
        result.errors.first
          == #"racecheck: invalid value '"x"' for '--initial' of 'check': expected an integer, "#
          + "the counter model's state")
    }
  }
}

/// A kv history file starting key "a" at "x", whose reads fit only "a" = "y" and "b" = "z".
private let keyValueHistory = #"""
  {"racecheck": 1, "model": "kv", "initial": {"a": "x"}, "operations": [
    {"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 1, "result": "y"},
    {"process": 1, "op": "get", "args": ["b"], "call": 0, "return": 1, "result": "z"}
  ]}
  """#

/// A Knossos history that reads 0 before any write.
private let readsZeroFirst = """
  [{:process 0, :type :invoke, :f :read, :value nil}
   {:process 0, :type :ok, :f :read, :value 0}
   {:process 1, :type :invoke, :f :cas, :value [0 1]}
   {:process 1, :type :ok, :f :cas, :value [0 1]}]
  """
