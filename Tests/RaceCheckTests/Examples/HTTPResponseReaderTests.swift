import Testing

@testable import EtcdExample

// The etcd client's HTTP/1.1 reader on the responses etcd's gateway sends: a JSON body by
// Content-Length, and errors as chunks with a trailer, which FoundationNetworking cannot read.

extension RaceCheckTestSuite {
  @Suite struct HTTPResponseReaderTests {
    /// `text` with `\n` line ends made HTTP's `\r\n`.
    func http(_ text: String) -> [UInt8] {
      Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
    }

    @Test func aBodyByContentLengthIsCompleteOnceEveryByteArrived() {
      let bytes =
        http("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 11\n\n")
        + Array(#"{"kvs":[1]}"#.utf8)
      var reader = HTTPResponseReader()
      #expect(reader.append(bytes.dropLast()) == .incomplete)
      #expect(
        reader.append(bytes.suffix(1))
          == .complete(.init(status: 200, body: Array(#"{"kvs":[1]}"#.utf8), keepsConnection: true))
      )
    }

    @Test func aChunkedErrorWithATrailerIsReadWhole() {
      let bytes = http(
        """
        HTTP/1.1 503 Service Unavailable
        Content-Type: application/json
        Trailer: Grpc-Trailer-Content-Type
        Transfer-Encoding: chunked

        7
        {"a":1}
        3
        ,"b
        0
        Grpc-Trailer-Content-Type: application/grpc


        """)
      for split in [1, 60, bytes.count - 3, bytes.count - 1] {
        var reader = HTTPResponseReader()
        #expect(reader.append(bytes.prefix(split)) == .incomplete, "split at \(split)")
        #expect(
          reader.append(bytes.dropFirst(split))
            == .complete(
              .init(status: 503, body: Array(#"{"a":1},"b"#.utf8), keepsConnection: true)))
      }
    }

    @Test func connectionCloseAndABodyToEndOfFileEndTheConnection() {
      var reader = HTTPResponseReader()
      #expect(reader.append(http("HTTP/1.1 200 OK\nConnection: close\n\nab")) == .incomplete)
      #expect(
        reader.append([], atEndOfFile: true)
          == .complete(.init(status: 200, body: Array("ab".utf8), keepsConnection: false)))
    }

    @Test func bytesThatAreNotHTTPAreMalformed() {
      var reader = HTTPResponseReader()
      #expect(
        reader.append(http("SSH-2.0-OpenSSH\n\n"))
          == .malformed(#"the status line "SSH-2.0-OpenSSH""#))
    }
  }
}
