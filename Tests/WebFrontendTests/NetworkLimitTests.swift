import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebFrontend
@testable import WebHTTP

/// The per-client limits count networks, not just addresses: a machine with many addresses of
/// one IPv4 /24 or one IPv6 /64 gets no more than that network's budget, reads are limited too,
/// and a network that holds most sessions gives way to a visitor from another one.
@MainActor
struct NetworkLimitTests {
  @Test func anIPv4AddressIsAClientInItsSlash24AndAnIPv6Slash64IsOneClient() {
    let a = ClientNetwork(address: "198.51.100.7")
    #expect(a.client == "198.51.100.7")
    #expect(a.network == "198.51.100.0/24")
    #expect(ClientNetwork(address: "198.51.100.200").network == a.network)

    let b = ClientNetwork(address: "2001:db8:aa:bb:1::7")
    #expect(b.client == "2001:db8:aa:bb::/64")
    #expect(b.network == "2001:db8:aa::/48")
    #expect(ClientNetwork(address: "2001:DB8:aa:bb:ffff:1:2:3").client == b.client)
    #expect(ClientNetwork(address: "2001:db8:aa:bc::1").client != b.client)
    #expect(
      ClientNetwork(address: "2001:db8:aa:bbcc:1::7", ipv6ClientPrefix: 56).client
        == "2001:db8:aa:bb00::/56")
    #expect(ClientNetwork(address: "local").client == "local")
  }

  /// A server behind a trusted proxy on loopback: each request names its client in
  /// X-Forwarded-For.
  func trustingLoopback(
    sessionCreation: RateLimiter.Rate = .init(burst: 100_000, perSecond: 100_000),
    reads: RateLimiter.Rate = .init(burst: 100_000, perSecond: 100_000)
  ) -> WebSecurity {
    WebSecurity(
      trustedProxies: ["127.0.0.1", "::1"], sessionCreation: sessionCreation,
      actions: .init(burst: 100_000, perSecond: 100_000), reads: reads)
  }

  func create(
    from address: String, _ client: some TestClientProtocol
  ) async throws -> TestResponse {
    try await client.call(.post, "/api/session", headers: [.forwardedFor: address])
  }

  @Test func manyAddressesOfOneNetworkShareItsBudget() async throws {
    // Two sessions per client at once, four clients' worth per network.
    let security = trustingLoopback(sessionCreation: .init(burst: 2, perSecond: 0.001))
    try await makeApplication(makeRegistry(), security: security).test(.ahc(.http)) { client in
      var created = 0
      var refusal = ""
      for host in 1...60 {
        let response = try await create(from: "203.0.113.\(host)", client)
        if response.status == .created {
          created += 1
        } else {
          refusal = try decodeBody(response, as: APIError.Body.self).error
        }
      }
      #expect(created == 8)
      #expect(refusal.hasPrefix("too many new sessions from this network; retry in"))
      // Another network is not affected.
      #expect(try await create(from: "192.0.2.10", client).status == .created)
    }
  }

  @Test func everyAddressOfAnIPv6Slash64IsOneClient() async throws {
    let security = trustingLoopback(sessionCreation: .init(burst: 2, perSecond: 0.001))
    try await makeApplication(makeRegistry(), security: security).test(.ahc(.http)) { client in
      var statuses: [HTTPResponse.Status] = []
      for host in 1...5 {
        statuses.append(try await create(from: "2001:db8:5:6::\(host)", client).status)
      }
      #expect(
        statuses == [.created, .created, .tooManyRequests, .tooManyRequests, .tooManyRequests])
      #expect(try await create(from: "2001:db8:5:7::1", client).status == .created)
    }
  }

  @Test func readingStatesIsLimited() async throws {
    let security = trustingLoopback(reads: .init(burst: 3, perSecond: 0.001))
    try await makeApplication(makeRegistry(), security: security).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      var statuses: [HTTPResponse.Status] = []
      for _ in 1...4 {
        statuses.append(try await client.call(.get, "/api/session/state", session: id).status)
      }
      #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
    }
  }

  /// One network keeps every session busy (none is idle, so none may be evicted the usual way);
  /// a visitor from another network still gets in, at the cost of that network's least
  /// recently used session. The flooding network itself gets no more.
  @Test func aNetworkHoldingMostSessionsGivesWayToAnother() async throws {
    let registry = makeRegistry(
      configuration: .init(maximumSessionCount: 10, minimumIdleBeforeEviction: .seconds(3_600)))
    try await makeApplication(registry, security: trustingLoopback()).test(.ahc(.http)) {
      client async throws in
      for host in 1...10 {
        #expect(try await create(from: "203.0.113.\(host)", client).status == .created)
      }
      #expect(try await create(from: "203.0.113.11", client).status == .serviceUnavailable)
      #expect(try await create(from: "192.0.2.1", client).status == .created)
      #expect(registry.count == 10)
      #expect(try await create(from: "203.0.113.12", client).status == .serviceUnavailable)
      #expect(try await create(from: "192.0.2.2", client).status == .created)
      #expect(registry.count == 10)
    }
  }
}
