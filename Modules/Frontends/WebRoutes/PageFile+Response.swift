import Foundation
import HTTPTypes
import Hummingbird
import WebFrontend

extension PageFile {
  /// The answer to a `GET` of this file: 304 when the request names its `ETag`. An HTML document
  /// carries the page's policy.
  package func response(to request: Request) -> Response {
    var headers: HTTPFields = [
      .contentType: contentType, .eTag: etag, .cacheControl: "no-cache",
    ]
    if contentType == Self.html {
      headers[.contentSecurityPolicy] = WebPage.contentSecurityPolicy
    }
    let tags = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
    if tags.contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(
      status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
