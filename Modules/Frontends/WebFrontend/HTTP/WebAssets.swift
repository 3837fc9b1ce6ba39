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
  /// The content type of each kind of file the page is made of; a file of another kind in
  /// `Public/` stops the server at start, rather than being served with a guessed type.
  static let contentTypes = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
  ]

  /// Every file of `Public/` by its path: `index.html` at `/`, the others by name (`/app.js`,
  /// `/search.js`, …): the page's ES modules import each other by these paths.
  public static let all: [String: Asset] = {
    guard
      let folder = Bundle.module.url(forResource: "Public", withExtension: nil),
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { fatalError("the web front end's resource folder Public is missing from the build") }
    var assets: [String: Asset] = [:]
    for name in names.sorted() where !name.hasPrefix(".") {
      let kind = String(name.split(separator: ".").last ?? "")
      guard let contentType = contentTypes[kind],
        let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
      else { fatalError("Public/\(name) cannot be served: not a page file (html, js, css, svg)") }
      let path = name == "index.html" ? "/" : "/" + name
      let bytes = [UInt8](data)
      assets[path] = Asset(
        path: path, contentType: contentType, bytes: bytes, etag: "\"\(fnv1a(bytes))\"")
    }
    return assets
  }()

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
