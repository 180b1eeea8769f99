import Foundation

extension CachedStore {
  /// The store's HTTP face: `GET /keys/{key}` → 200 with the value; `PUT /keys/{key}` with the value as body → 204.
  ///
  /// The key is the path's last segment, percent-encoded; the value is the body in UTF-8.
  /// An absent key reads as 200 with an empty body.
  func respond(to request: HTTPRequest) -> HTTPResponse {
    let prefix = "/keys/"
    guard request.path.hasPrefix(prefix) else {
      return .text(404, "no resource at \(request.path): use /keys/{key}\n")
    }
    let segment = request.path.dropFirst(prefix.count)
    guard !segment.isEmpty, !segment.contains("/") else {
      return .text(404, "'\(segment)' is not one key: percent-encode a key's '/' as %2F\n")
    }
    guard let key = String(segment).removingPercentEncoding else {
      return .text(400, "the key '\(segment)' is not valid percent-encoded UTF-8\n")
    }
    switch request.method {
    case "GET":
      return HTTPResponse(
        status: 200, contentType: "text/plain; charset=utf-8", body: Array(get(key).utf8))
    case "PUT":
      guard let value = String(validating: request.body, as: UTF8.self) else {
        return .text(400, "the value of key '\(key)' is not UTF-8\n")
      }
      put(key, value)
      return HTTPResponse(status: 204)
    default:
      return HTTPResponse(
        status: 405, contentType: "text/plain; charset=utf-8",
        fields: [HTTPField(name: "Allow", value: "GET, PUT")],
        body: Array("\(request.method) is not allowed on a key: use GET or PUT\n".utf8))
    }
  }
}
