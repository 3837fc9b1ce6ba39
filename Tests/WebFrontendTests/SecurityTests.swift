import AppFeature
import AppWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebHTTP
import WebSessions

/// The rules that make the server safe to put on the internet: the session id only in a cookie,
/// requests only from the page's own origin and to the server's own names, strict bodies,
/// per-client limits, and the security headers.
@MainActor
struct SecurityTests {
  // MARK: The session cookie

  @Test func theSessionIDTravelsOnlyInAnHttpOnlyStrictCookie() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let response = try await client.call(.post, "/api/session")
      #expect(response.status == .created)
      let cookie = try #require(response.headers[.setCookie])
      let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      let id = String(attributes[0].dropFirst("session=".count))
      #expect(SessionID(id) != nil)
      #expect(attributes.contains("HttpOnly"))
      #expect(attributes.contains("SameSite=Strict"))
      #expect(attributes.contains("Path=/api/session"))
      #expect(!attributes.contains("Secure"))
      // Not in the body: a script on the page cannot read it.
      #expect(!String(buffer: response.body).contains(id))
    }
  }

  @Test func theSessionCookieIsFoundAmongOthersAndOnlyByItsFullName() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      func state(_ values: [String]) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [:]
        for value in values { headers.append(HTTPField(name: .cookie, value: value)) }
        return try await client.execute(
          uri: "/api/session/state", method: .get, headers: headers, body: nil
        ).status
      }
      // Among other cookies, after spaces and a tab, in a second Cookie header.
      #expect(try await state(["theme=dark; a=b=c;\tsession=\(session.id); x=1"]) == .ok)
      #expect(try await state(["theme=dark", "session=\(session.id)"]) == .ok)
      // The first one named so counts; a longer name or a value alone is not the cookie.
      #expect(try await state(["session=\(session.id); session=nothing"]) == .ok)
      #expect(try await state(["session=nothing; session=\(session.id)"]) == .notFound)
      #expect(try await state(["xsession=\(session.id)"]) == .notFound)
      #expect(try await state(["\(session.id)"]) == .notFound)
      #expect(try await state(["session="]) == .notFound)
    }
  }

  @Test func theCookieIsSecureWhenTheServerIsToldItIsBehindTLS() async throws {
    let security = WebSecurity(secureCookies: true)
    try await makeApplication(makeRegistry(), security: security).test(.router) { client in
      let response = try await client.call(.post, "/api/session")
      #expect(response.headers[.setCookie]?.contains("; Secure") == true)
    }
  }

  @Test func aSessionIsReachedOnlyWithItsCookie() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/session/state"), (.get, "/api/session/events"),
        (.post, "/api/session/actions"), (.delete, "/api/session"),
      ] {
        let response = try await client.call(method, path)
        #expect(response.status == .notFound, "\(method) \(path)")
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error == "no session; create one with POST /api/session")
      }
      // The old form with the id in the URL is gone.
      let old = try await client.call(.get, "/api/sessions/\(session.id)/state")
      #expect(old.status == .notFound)
      #expect(try await client.state(of: session.id).revision == session.revision)
    }
  }

  @Test func endingASessionClearsItsCookie() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let response = try await client.call(.delete, "/api/session", session: session.id)
      #expect(response.status == .noContent)
      #expect(response.headers[.setCookie]?.hasPrefix("session=;") == true)
      #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
    }
  }

  // MARK: Host and Origin

  @Test(arguments: ["evil.example", "evil.example:8080", "localhost.evil.example", "[::2]:80"])
  func anUnknownHostIsRefused(_ host: String) async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let answer = try await RawHTTP.exchange(
        port: try #require(client.port), "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 421"), "\(answer.prefix(40))")
      let body = try #require(answer.range(of: "\r\n\r\n")).upperBound
      let error = try JSONDecoder().decode(APIError.Body.self, from: Data(answer[body...].utf8))
      #expect(error.error == "this server does not answer to that Host")
      #expect(error.status == 421)
    }
  }

  @Test(arguments: [
    "127.0.0.1:8080@evil.example", "localhost:80x", "127.0.0.1:99999", "127.0.0.1:",
    "localhost:0", "[::1]:80@evil.example", "[::1]x", "localhost:80:81",
  ])
  func aHostThatIsNotJustANameAndAPortIsRefused(_ host: String) async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.live) { client in
      let port = try #require(client.port)
      let created = try await RawHTTP.exchange(
        port: port,
        "POST /api/session HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: http://localhost:\(port)\r\n"
          + "Content-Length: 0\r\n\r\n")
      let cookie = try #require(created.range(of: "session=")).upperBound
      let session = String(created[cookie...].prefix { $0 != ";" })
      #expect(registry.contains(session))
      // Even a state-changing request with the session's cookie changes nothing.
      let answer = try await RawHTTP.exchange(
        port: port,
        "DELETE /api/session HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://localhost:\(port)\r\n"
          + "Cookie: session=\(session)\r\nContent-Length: 0\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 421"), "\(answer.prefix(40))")
      #expect(registry.contains(session))
    }
  }

  @Test func twoHostHeadersAreRefused() async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let answer = try await RawHTTP.exchange(
        port: try #require(client.port),
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(40))")
      #expect(answer.contains("a request has one Host header"))
    }
  }

  /// An absolute-form target names the request's authority, whatever `Host` says (RFC 9112
  /// §3.2.2): one naming another host is refused like such a `Host`, even with a valid `Host`.
  @Test func anAbsoluteTargetNamingAnotherHostIsRefused() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.live) { client in
      let port = try #require(client.port)
      let read = try await RawHTTP.exchange(
        port: port,
        "GET http://evil.example/api/actions HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      #expect(read.hasPrefix("HTTP/1.1 421"), "\(read.prefix(40))")

      let created = try await RawHTTP.exchange(
        port: port,
        "POST /api/session HTTP/1.1\r\nHost: localhost:\(port)\r\nOrigin: http://localhost:\(port)\r\n"
          + "Content-Length: 0\r\n\r\n")
      let cookie = try #require(created.range(of: "session=")).upperBound
      let session = String(created[cookie...].prefix { $0 != ";" })
      let ended = try await RawHTTP.exchange(
        port: port,
        "DELETE http://evil.example:\(port)/api/session HTTP/1.1\r\nHost: localhost:\(port)\r\n"
          + "Origin: http://localhost:\(port)\r\nCookie: session=\(session)\r\nContent-Length: 0\r\n\r\n"
      )
      #expect(ended.hasPrefix("HTTP/1.1 421"), "\(ended.prefix(40))")
      #expect(registry.contains(session))
    }
  }

  @Test func anAbsoluteTargetNamingThisServerIsServedWhateverHostSays() async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let port = try #require(client.port)
      for target in ["http://127.0.0.1:\(port)/healthz", "HTTP://localhost:\(port)/healthz?x=1"] {
        let answer = try await RawHTTP.exchange(
          port: port, "GET \(target) HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(target): \(answer.prefix(40))")
        #expect(answer.hasSuffix("ok\n"), "\(target)")
      }
    }
  }

  @Test(arguments: [
    ("ftp://127.0.0.1/healthz", "the request target's scheme must be http or https"),
    ("http://user@127.0.0.1/healthz", "the request target may not carry user information"),
  ])
  func anAbsoluteTargetThatIsNotAnHTTPURLIsRefused(_ target: String, _ reason: String)
    async throws
  {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let port = try #require(client.port)
      let answer = try await RawHTTP.exchange(
        port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(40))")
      #expect(answer.contains(reason), "\(answer)")
    }
  }

  /// The header that carries an absolute target inside the server cannot be sent by a client.
  @Test func aClientCannotForgeTheAbsoluteTargetHeader() async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let port = try #require(client.port)
      let answer = try await RawHTTP.exchange(
        port: port,
        "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
          + "X-App-Absolute-Target: ftp://evil.example/\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(40))")
    }
  }

  /// A method token the HTTP parser does not know gets the same JSON refusal as a known method
  /// on the wrong route, not a bare 400.
  @Test(arguments: ["FOO", "get", "BREW"])
  func anUnknownMethodGetsAJSON405(_ method: String) async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let port = try #require(client.port)
      let answer = try await RawHTTP.exchange(
        port: port, "\(method) /api/session HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer.prefix(40))")
      #expect(answer.lowercased().contains("allow: get, head, post, delete"))
      #expect(answer.lowercased().contains("x-content-type-options: nosniff"))
      let body = try #require(answer.range(of: "\r\n\r\n")).upperBound
      let error = try JSONDecoder().decode(APIError.Body.self, from: Data(answer[body...].utf8))
      #expect(error.status == 405)
      #expect(error.error.hasPrefix("unknown request method"))
    }
  }

  @Test func aRequestWithoutHostIsRefused() async throws {
    try await makeApplication(makeRegistry()).test(.live) { client in
      let answer = try await RawHTTP.exchange(
        port: try #require(client.port), "GET / HTTP/1.0\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.0 421") || answer.hasPrefix("HTTP/1.1 421"))
    }
  }

  @Test func aConfiguredHostIsServed() async throws {
    let security = WebSecurity(allowedHosts: ["App.Example.org"])
    try await makeApplication(makeRegistry(), security: security).test(.live) { client in
      let answer = try await RawHTTP.exchange(
        port: try #require(client.port),
        "GET /healthz HTTP/1.1\r\nHost: app.example.org:8080\r\nConnection: close\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 200"))
    }
  }

  @Test func stateChangesFromAnotherOriginAreRefusedAndChangeNothing() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      let session = try await client.createSession()
      let cases: [(HTTPFields, String)] = [
        (
          [.origin: "http://evil.example"], "cross-site request refused (Origin is not this server)"
        ),
        (
          [.origin: "http://localhost:9999"],
          "cross-site request refused (Origin is not this server)"
        ),
        ([.origin: "null"], "cross-site request refused (Origin is not this server)"),
        // As long as this server's origin, one letter off.
        ([.origin: "http://localhosx"], "cross-site request refused (Origin is not this server)"),
        (
          [.origin: "http://localhost", .fetchSite: "cross-site"],
          "cross-site request refused (Sec-Fetch-Site: cross-site)"
        ),
        (
          [.origin: "http://localhost", .fetchSite: "same-site"],
          "cross-site request refused (Sec-Fetch-Site: same-site)"
        ),
      ]
      for (headers, message) in cases {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cookie] = "session=\(session.id)"
        let response = try await client.execute(
          uri: "/api/session/actions", method: .post, headers: headers,
          body: ByteBuffer(string: #"{"type":"counter.add"}"#))
        #expect(response.status == .forbidden)
        #expect(try decodeBody(response, as: APIError.Body.self).error == message)
      }
      // Without any Origin (a script on another site cannot omit it; curl must add it).
      let bare = try await client.execute(
        uri: "/api/session", method: .post, headers: [:], body: nil)
      #expect(bare.status == .forbidden)
      #expect(
        try decodeBody(bare, as: APIError.Body.self).error.hasPrefix(
          "a request that changes state needs an Origin header naming this server"))
      #expect(registry.count == 1)
      let after = try await client.state(of: session.id)
      #expect(after.state == session.state)
      #expect(after.revision == session.revision)
    }
  }

  @Test func theSameOriginIsAccepted() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let response = try await client.call(
        .post, "/api/session/actions", session: session.id,
        headers: [
          .contentType: "application/json; charset=UTF-8", .fetchSite: "same-origin",
          .origin: "HTTP://LOCALHOST",
        ],
        body: ByteBuffer(string: #"{"type":"counter.add"}"#))
      #expect(response.status == .ok)
    }
  }

  // MARK: Methods, media types, headers

  @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      for (method, path, allow) in [
        (HTTPRequest.Method.get, "/api/session", "POST, DELETE"),
        (.put, "/api/session/actions", "POST"),
        (.post, "/", "GET"),
        (HTTPRequest.Method("BREW")!, "/api/session/state", "GET"),
      ] {
        let response = try await client.call(method, path)
        #expect(response.status == .methodNotAllowed, "\(method) \(path)")
        #expect(response.headers[.allow] == allow)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error.hasPrefix("\(method.rawValue) \(path) is not allowed"))
      }
    }
  }

  @Test func anUnknownRouteIs404InTheJSONFormAndEchoesLittle() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let long = "/api/" + String(repeating: "x", count: 5_000)
      for path in ["/api/nothing", "/nothing", long] {
        let response = try await client.call(.get, path)
        #expect(response.status == .notFound)
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error.count < 160, "\(error.error.count)")
      }
    }
  }

  @Test(arguments: [
    "text/plain", "application/x-www-form-urlencoded", "application/xml",
    "application/json; charset=utf-16", "", "application/jsonp",
  ])
  func aBodyThatIsNotJSONInUTF8Is415(_ contentType: String) async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      var headers: HTTPFields = [:]
      if !contentType.isEmpty { headers[.contentType] = contentType }
      let response = try await client.call(
        .post, "/api/session/actions", session: session.id, headers: headers,
        body: ByteBuffer(string: #"{"type":"counter.add"}"#))
      #expect(response.status == .unsupportedMediaType)
      #expect(try await client.state(of: session.id).state == session.state)
    }
  }

  @Test(arguments: [
    "application/json", "Application/JSON", "application/json; charset=utf-8",
    #"application/json;charset="UTF-8""#, " application/json ;\tcharset=Utf-8 ",
    "application/json; version=2",
  ])
  func aBodyOfJSONInUTF8IsReadWhateverTheCaseAndSpacing(_ contentType: String) async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let response = try await client.call(
        .post, "/api/session/actions", session: session.id,
        headers: [.contentType: contentType], body: ByteBuffer(string: #"{"type":"counter.add"}"#))
      #expect(response.status == .ok)
      #expect(try await client.state(of: session.id).state != session.state)
    }
  }

  @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      for (method, path) in [
        (HTTPRequest.Method.get, "/"), (.get, "/app.js"), (.get, "/healthz"),
        (.get, "/api/session/state"), (.get, "/api/nothing"), (.patch, "/api/session"),
      ] {
        let response = try await client.call(method, path, session: session.id)
        #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
        #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        let policy = try #require(response.headers[.contentSecurityPolicy])
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe-inline"))
      }
    }
  }

  @Test func thePageIsWebFilesWithAStrictPolicyAndETags() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let page = try await client.call(.get, "/")
      #expect(
        page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'; script-src 'self'")
          == true)
      let html = String(buffer: page.body)
      #expect(!html.contains("<style"))
      #expect(!html.contains("style="))
      #expect(!html.contains("<script>"))
      #expect(html.range(of: #" on[a-z]+="#, options: .regularExpression) == nil)
      for (path, type) in [
        ("/app.css", "text/css; charset=utf-8"), ("/favicon.svg", "image/svg+xml"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/search.js", "text/javascript; charset=utf-8"),
      ] {
        let response = try await client.call(.get, path)
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == type)
        let etag = try #require(response.headers[.eTag])
        let again = try await client.call(.get, path, headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        #expect(again.body.readableBytes == 0)
        let stale = try await client.call(.get, path, headers: [.ifNoneMatch: #""0""#])
        #expect(stale.status == .ok)
      }
      for path in WebApp.app.page.files.keys where path.hasSuffix(".js") {
        let script = String(buffer: try await client.call(.get, path).body)
        #expect(!script.contains("style="), "\(path) sets an inline style, which the CSP refuses")
      }
      // The modules — the frame's and each section's — import each other by the paths they are
      // served at.
      for path in WebApp.app.page.files.keys where path.hasSuffix(".js") {
        let script = String(buffer: try await client.call(.get, path).body)
        for module in script.matches(of: #/from "\.(/[a-z]+\.js)"/#).map({ String($0.output.1) }) {
          #expect(
            WebApp.app.page.files[module] != nil, "\(path) imports \(module), which is not served")
        }
      }
    }
  }

  // MARK: Strict bodies

  @Test(arguments: [
    (#"{"type":"counter.add",}"#, "the body is not valid JSON: a trailing comma"),
    (
      #"{"type":"counter.add","type":"counter.add"}"#,
      "the body is not valid JSON: duplicate key 'type'"
    ),
    (#"{"type":"counter.add","x":1}"#, "unknown field 'x' for 'counter.add'"),
    (#"{'type':'counter.add'}"#, "the body is not valid JSON"),
    (#"{"type":"counter.add"} // comment"#, "the body is not valid JSON: unexpected data"),
    ("\u{FEFF}{\"type\":\"counter.add\"}", "the body is not valid JSON: a byte-order mark"),
    (#"{"type":"counter.add","x":NaN}"#, "the body is not valid JSON"),
    (
      #"{"type":"search.select","id":012}"#,
      "the body is not valid JSON: a number with a leading zero"
    ),
    (#"{"type":"search.query","query":"\ud800"}"#, "the body is not valid JSON: a lone surrogate"),
  ])
  func malformedJSONIsRefusedAndChangesNothing(_ body: String, _ message: String) async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let response = try await client.post(body, to: session.id)
      #expect(response.status == .badRequest)
      let error = try decodeBody(response, as: APIError.Body.self)
      #expect(error.error.hasPrefix(message), "\(error.error)")
      let after = try await client.state(of: session.id)
      #expect(after.state == session.state && after.revision == session.revision)
    }
  }

  @Test func aDeeplyNestedBodyIsRefusedAndTheServerStaysUp() async throws {
    try await makeApplication(makeRegistry()).test(.ahc(.http)) { client in
      let session = try await client.createSession()
      for body in [
        #"{"type":"counter.add","x":"# + String(repeating: "[", count: 513),
        String(repeating: "[", count: 513),
        String(repeating: #"{"a":"#, count: 2_000),
        String(repeating: "[", count: 16_000),
      ] {
        let response = try await client.post(body, to: session.id)
        #expect(response.status == .badRequest)
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(
          error.error.hasPrefix("the body is not valid JSON: nested too deeply (at most 32 levels)")
        )
      }
      let after = try await client.state(of: session.id)
      #expect(after.revision == session.revision)
    }
  }

  @Test func aUTF16BodyIsRefused() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      var body = ByteBuffer()
      body.writeBytes(
        Array(#"{"type":"counter.add"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
      let response = try await client.call(
        .post, "/api/session/actions", session: session.id,
        headers: [.contentType: "application/json"], body: body)
      #expect(response.status == .badRequest)
      #expect(try await client.state(of: session.id).state == session.state)
    }
  }

  // MARK: Per-client limits

  @Test func sessionCreationIsRateLimitedPerClientWithRetryAfter() async throws {
    let security = WebSecurity(sessionCreation: .init(burst: 3, perSecond: 0.01))
    let registry = makeRegistry()
    try await makeApplication(registry, security: security).test(.router) { client in
      for _ in 0..<3 { _ = try await client.createSession() }
      let response = try await client.call(.post, "/api/session")
      #expect(response.status == .tooManyRequests)
      let retryAfter = try #require(response.headers[.retryAfter].flatMap(Int.init))
      #expect(retryAfter >= 1 && retryAfter <= 100)
      let error = try decodeBody(response, as: APIError.Body.self)
      #expect(error.error.hasPrefix("too many new sessions from this client"))
    }
    #expect(registry.count == 3)
  }

  @Test func actionsAreRateLimitedPerClient() async throws {
    let security = WebSecurity(actions: .init(burst: 5, perSecond: 0.01))
    try await makeApplication(makeRegistry(), security: security).test(.router) { client in
      let session = try await client.createSession()
      for _ in 0..<5 { try await client.send(.incrementCounter(id: firstCounter), to: session.id) }
      let response = try await client.post(#"{"type":"counter.add"}"#, to: session.id)
      #expect(response.status == .tooManyRequests)
      #expect(response.headers[.retryAfter] != nil)
      let after = try await client.state(of: session.id).state
      #expect(after.counters.count == 1)
      #expect(after.counters[0].count == 5)
    }
  }

  @Test func aTrustedProxyNamesTheClientAndOthersCannot() async throws {
    // Over real TCP from the loopback address: untrusted, X-Forwarded-For is ignored, so every request is
    // the same client; trusted, each forwarded address has its own bucket.
    for trusted in [false, true] {
      let security = WebSecurity(
        trustedProxies: trusted ? ["127.0.0.1", "::1"] : [],
        sessionCreation: .init(burst: 1, perSecond: 0.01))
      try await makeApplication(makeRegistry(), security: security).test(.ahc(.http)) { client in
        var statuses: [HTTPResponse.Status] = []
        for address in ["203.0.113.1", "203.0.113.2"] {
          let response = try await client.call(
            .post, "/api/session", headers: [.forwardedFor: "198.51.100.7, \(address)"])
          statuses.append(response.status)
        }
        #expect(statuses == (trusted ? [.created, .created] : [.created, .tooManyRequests]))
      }
    }
  }

  @Test func eventStreamsPerClientAreLimited() async throws {
    let registry = makeRegistry()
    let security = WebSecurity(maximumEventStreamsPerClient: 1)
    try await makeApplication(registry, security: security).test(.ahc(.http)) { client in
      let a = try await client.createSession()
      let b = try await client.createSession()
      async let stream = client.call(.get, "/api/session/events", session: a.id)
      try await waitUntil { registry.eventStreamCount(of: a.id) == 1 }
      let refused = try await client.call(.get, "/api/session/events", session: b.id)
      #expect(refused.status == .tooManyRequests)
      #expect(
        try decodeBody(refused, as: APIError.Body.self).error
          == "too many event streams open from this client (the limit is 1)")
      registry.endAll()
      #expect(try await stream.status == .ok)
    }
  }

  // MARK: The cap of live sessions

  @Test func aFullServerEvictsTheLeastRecentlyUsedIdleSession() async throws {
    let registry = makeRegistry(
      configuration: .init(maximumSessionCount: 2, minimumIdleBeforeEviction: .zero))
    try await makeApplication(registry).test(.router) { client in
      let oldest = try await client.createSession()
      let other = try await client.createSession()
      // Using the oldest makes `other` the least recently used.
      _ = try await client.state(of: oldest.id)
      let newest = try await client.createSession()
      #expect(registry.count == 2)
      #expect(registry.contains(oldest.id))
      #expect(!registry.contains(other.id))
      #expect(registry.contains(newest.id))
      let gone = try await client.call(.get, "/api/session/state", session: other.id)
      #expect(gone.status == .notFound)
    }
  }

  @Test func sessionsInUseAreNotEvicted() async throws {
    // Sessions used within the last minute are not idle: the new visitor waits (503), nobody
    // is thrown out.
    let registry = makeRegistry(configuration: .init(maximumSessionCount: 1))
    try await makeApplication(registry).test(.router) { client in
      let first = try await client.createSession()
      let response = try await client.call(.post, "/api/session")
      #expect(response.status == .serviceUnavailable)
      #expect(registry.contains(first.id))
    }
  }

  // MARK: Operability

  @Test func readinessFailsWhileDrainingAndHealthDoesNot() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      #expect(try await client.call(.get, "/readyz").status == .ok)
      registry.endAll()
      let ready = try await client.call(.get, "/readyz")
      #expect(ready.status == .serviceUnavailable)
      #expect(try decodeBody(ready, as: APIError.Body.self).error == "the server is draining")
      #expect(try await client.call(.get, "/healthz").status == .ok)
    }
  }

  @Test func theActionCatalogueListsEveryActionTheServerAccepts() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let response = try await client.call(.get, "/api/actions")
      #expect(response.status == .ok)
      let catalogue = try decodeBody(response, as: [ActionDescription].self)
      #expect(catalogue.map(\.type) == AppFeature.webAPI.types)
      #expect(Set(catalogue.map(\.type)).count == catalogue.count)
    }
    // Every action encodes to its catalogue entry, fields and all.
    let entries = Dictionary(
      uniqueKeysWithValues: AppFeature.webAPI.catalogue.map { ($0.type, $0) })
    for action in UserAction.examples {
      let object = try #require(
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(action)) as? [String: Any])
      let entry = try #require(entries[action.type], "\(action.type)")
      #expect(Set(object.keys) == Set(entry.fields.keys).union(["type"]), "\(action.type)")
      #expect(try AppFeature.webAPI.decode(JSONEncoder().encode(action)) == action)
    }
    #expect(Set(UserAction.examples.map(\.type)) == Set(AppFeature.webAPI.types))
  }
}

extension HTTPField.Name {
  static let fetchSite = Self("Sec-Fetch-Site")!
  static let forwardedFor = Self("X-Forwarded-For")!
}

extension UserAction {
  /// One action of every type.
  static let examples: [UserAction] = {
    let id = UUID(0)
    return [
      .selectTab(.search), .addCounter, .removeCounter(id: id), .confirmRemoveCounter,
      .cancelRemoveCounter, .incrementCounter(id: id), .decrementCounter(id: id),
      .requestFact(id: id), .requestRandomNumber(id: id), .toggleTimer(id: id),
      .changeSearchQuery("Seoul"), .submitSearch, .selectSearchResult(id: 1),
      .changeSetting(.protectMyPosts(true)), .resetSettings, .confirmResetSettings,
      .cancelResetSettings, .toggleFavorite(episodeID: id), .dismissFavoriteAlert(episodeID: id),
      .openEpisode(id: id), .toggleFavoritesOnly, .toggleScreenFavorite, .dismissScreenAlert,
      .closeScreen, .popScreen,
    ]
  }()
}
