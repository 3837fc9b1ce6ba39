import Foundation

/// A request the offline weather client refuses, as Open-Meteo would.
public struct OfflineWeatherError: Error, Hashable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The latitude asked for.
  public var latitude: Double
  /// The longitude asked for.
  public var longitude: Double

  /// Creates the error for a place with these coordinates.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether a forecast can be made for these coordinates: latitude within -90...90 and
  /// longitude within -180...180 degrees.
  public static func areValid(latitude: Double, longitude: Double) -> Bool {
    (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
  }

  /// The message, e.g. `Offline forecast: latitude must be in range of -90 to 90° and
  /// longitude of -180 to 180°. Given: 123.0, 13.4.`
  public var description: String {
    "Offline forecast: latitude must be in range of -90 to 90° and longitude of -180 to 180°. "
      + "Given: \(latitude), \(longitude)."
  }

  /// The same as ``description``.
  public var errorDescription: String? { description }
}
