/// A fixture runtime's recording: the names a feature must not write.
public protocol RecordDecodable {}

public struct RecordedValue {
  /// A member's name is no name of its own.
  public enum Alert {}
  public func state() {}
}

@attached(extension, conformances: RecordDecodable)
public macro RecordDecodable() = #externalMacro(module: "M", type: "T")

struct InternalHelper {}
