/// Runs `operation` with a started ``FixtureServer`` and stops the server afterwards, even when
/// `operation` throws.
///
/// ```swift
/// try await withFixtureServer { _ in .json("[4]") } operation: { server in
///   let number = try await client(baseURL: server.baseURL).fetch(min: 1, max: 6)
///   #expect(number == 4)
/// }
/// ```
@discardableResult
public func withFixtureServer<R>(
  isolation: isolated (any Actor)? = #isolation,
  handler: @escaping FixtureServer.Handler,
  operation: (FixtureServer) async throws -> R
) async throws -> R {
  let server = try await FixtureServer.start(handler: handler)
  do {
    let result = try await operation(server)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// Runs `operation` with a ``FixtureServer`` that answers by path (404 otherwise), and stops
/// the server afterwards.
///
/// ```swift
/// try await withFixtureServer(routes: ["/42/trivia": .text("42 is …")]) { server in
///   …
/// }
/// ```
@discardableResult
public func withFixtureServer<R>(
  isolation: isolated (any Actor)? = #isolation,
  routes: [String: FixtureServer.Response],
  operation: (FixtureServer) async throws -> R
) async throws -> R {
  try await withFixtureServer(
    isolation: isolation, handler: { request in routes[request.path] ?? .notFound },
    operation: operation)
}
