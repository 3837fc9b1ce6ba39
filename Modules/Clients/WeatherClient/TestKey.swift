import Dependencies

extension WeatherClient: TestDependencyKey {
  /// Mock data: ``GeocodingSearch/mock`` for every search and ``Forecast/mock`` for every place.
  public static let previewValue = Self(
    forecast: { _ in .mock },
    forecastInUnit: { _, unit in .mock(in: unit) },
    search: { _ in .mock }
  )

  /// Every endpoint is unimplemented: calling one records a test failure and throws.
  public static let testValue = Self()
}

extension DependencyValues {
  /// The client that searches places and fetches their forecast.
  public var weatherClient: WeatherClient {
    get { self[WeatherClient.self] }
    set { self[WeatherClient.self] = newValue }
  }
}
