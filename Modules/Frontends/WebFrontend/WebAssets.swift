import Foundation
import HTTPTypes
import Hummingbird

/// The files of the page — `index.html`, `app.css`, `app.js` (an ES module) and `favicon.svg` —
/// read once from the package's resources and served with their content types and an `ETag`.
///
/// No build step, no CDN, no external request: the page works offline. The script resumes the
/// browser's session (`GET /api/session/state`; the id is in an HttpOnly cookie) or creates one
/// (`POST /api/session`), sends every user action to `POST /api/session/actions`, and redraws
/// from the state in each response and from the event stream (`GET /api/session/events`),
/// keeping the snapshot with the highest revision.
///
/// Nothing inline: no `<style>`, no `style=`, no `<script>` body and no `on…=` handler, so the
/// page's Content-Security-Policy is ``contentSecurityPolicy``, without `'unsafe-inline'`.
public enum WebAssets {
  /// One file of the page.
  public struct Asset: Sendable {
    /// The path it is served at, e.g. `/app.js`.
    public let path: String
    /// Its `Content-Type`.
    public let contentType: String
    /// Its bytes.
    public let bytes: [UInt8]
    /// A strong validator of `bytes`: a hash of the content, quoted.
    public let etag: String
  }

  /// The page's policy: everything from this origin only, nothing inline, no framing.
  public static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// The files by path (`/` is `index.html`). A missing resource is a broken build: it stops the
  /// process at the first request rather than serving a page without its script.
  public static let all: [String: Asset] = {
    let files: [(String, String, String)] = [
      ("/", "index.html", "text/html; charset=utf-8"),
      ("/app.js", "app.js", "text/javascript; charset=utf-8"),
      ("/app.css", "app.css", "text/css; charset=utf-8"),
      ("/favicon.svg", "favicon.svg", "image/svg+xml"),
    ]
    var assets: [String: Asset] = [:]
    for (path, name, contentType) in files {
      guard
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Public"),
        let data = try? Data(contentsOf: url)
      else { fatalError("the web front end's resource Public/\(name) is missing from the build") }
      let bytes = [UInt8](data)
      assets[path] = Asset(
        path: path, contentType: contentType, bytes: bytes, etag: "\"\(fnv1a(bytes))\"")
    }
    return assets
  }()

  /// The answer to `GET path`: 200 with the file, or 304 when `If-None-Match` names its ETag.
  static func response(for asset: Asset, request: Request) -> Response {
    var headers: HTTPFields = [
      .contentType: asset.contentType, .eTag: asset.etag, .cacheControl: "no-cache",
    ]
    if asset.path == "/" { headers[.contentSecurityPolicy] = contentSecurityPolicy }
    let tags = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
    if tags.contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag }) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(
      status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
  }

  /// 64-bit FNV-1a, as 16 hexadecimal digits: enough to tell versions of a file apart.
  private static func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
