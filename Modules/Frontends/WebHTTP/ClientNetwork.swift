import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Who a request counts against in the per-client limits: a *client* and the wider *network*
/// it is in, each with a budget of its own.
///
/// - IPv4: the client is the address; the network its /24 — so a machine with many addresses
///   of one block cannot multiply its budget by its addresses.
/// - IPv6: the client is the address's /64 (configurable): one end site gets a /64 and holds
///   billions of addresses in it; the network is its /48.
/// - Anything else (requests without a peer address in tests: `local`): both are the value.
package struct ClientNetwork: Hashable, Sendable {
  /// The key of the client's own budget.
  package let client: String
  /// The key of the budget the client shares with its network.
  package let network: String

  /// The keys of `address` (as `WebRequestContext.client(of:trustedProxies:)` gives it).
  package init(address: String, ipv6ClientPrefix: Int = 64) {
    var v4 = in_addr()
    if inet_pton(AF_INET, address, &v4) == 1 {
      let bytes = withUnsafeBytes(of: v4) { Array($0) }
      client = bytes.map(String.init).joined(separator: ".")
      network = bytes.prefix(3).map(String.init).joined(separator: ".") + ".0/24"
      return
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, address, &v6) == 1 {
      let bytes = withUnsafeBytes(of: v6) { Array($0) }
      let prefix = min(max(ipv6ClientPrefix, 16), 128)
      client = Self.ipv6Prefix(bytes, length: prefix)
      network = Self.ipv6Prefix(bytes, length: min(48, prefix))
      return
    }
    client = address
    network = address
  }

  /// `bytes` cut to `length` bits, written as its hexadecimal groups and the length:
  /// `2001:db8:1:2::/64`.
  private static func ipv6Prefix(_ bytes: [UInt8], length: Int) -> String {
    var masked = bytes
    for index in masked.indices {
      let keep = max(0, min(8, length - index * 8))
      masked[index] &= keep == 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
    }
    let groups = stride(from: 0, to: 16, by: 2).map {
      String(UInt16(masked[$0]) << 8 | UInt16(masked[$0 + 1]), radix: 16)
    }
    let used = (length + 15) / 16
    return groups.prefix(used).joined(separator: ":") + (used < 8 ? "::" : "") + "/\(length)"
  }
}
