import Crypto
import Foundation

/// The key a saved session is stored under: the SHA-256 of its id, as 64 lowercase hexadecimal
/// digits. A session id is the visitor's credential (whoever presents it, with the visitor's
/// cookie, resumes the session), so the database never holds one: a reader of the database file
/// or a backup learns nothing that opens a session, while the server, which is handed the id,
/// finds the row. The id's 128 random bits make a dictionary of digests useless, so no salt is
/// needed.
public enum SessionKey {
  /// The stored key of the session `id`.
  public static func of(_ id: String) -> String {
    SHA256.hash(data: Data(id.utf8)).map { byte in
      let digits = String(byte, radix: 16)
      return byte < 16 ? "0" + digits : digits
    }.joined()
  }
}
