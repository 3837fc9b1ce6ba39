import AppConfiguration
import Foundation
import LiveHTTP
import Testing
import WeatherClient
import WeatherClientLive

struct ConfigurationTests {
  @Test func emptyEnvironmentGivesOpenMeteoDefaults() throws {
    let configuration = try WeatherClient.Configuration(environment: [:])
    #expect(configuration.geocodingBaseURL.absoluteString == "https://geocoding-api.open-meteo.com")
    #expect(configuration.forecastBaseURL.absoluteString == "https://api.open-meteo.com")
    #expect(configuration.timeout == .seconds(10))
    // The place's own time zone: a forecast starts on the place's today.
    #expect(configuration.forecastTimeZone == "auto")
  }

  @Test func environmentOverridesEverySetting() throws {
    let configuration = try WeatherClient.Configuration(environment: [
      "WEATHER_GEOCODING_BASE_URL": "http://127.0.0.1:9001",
      "WEATHER_FORECAST_BASE_URL": "http://127.0.0.1:9002/forecast",
      "WEATHER_FORECAST_TIMEZONE": "Asia/Seoul",
      "WEATHER_TIMEOUT_SECONDS": "2.5",
      "HTTP_TIMEOUT_SECONDS": "7",
    ])
    #expect(configuration.geocodingBaseURL.absoluteString == "http://127.0.0.1:9001")
    #expect(configuration.forecastBaseURL.absoluteString == "http://127.0.0.1:9002/forecast")
    #expect(configuration.forecastTimeZone == "Asia/Seoul")
    #expect(configuration.timeout == .milliseconds(2_500))
  }

  @Test func sharedTimeoutAppliesWhenNoWeatherTimeoutIsSet() throws {
    let configuration = try WeatherClient.Configuration(environment: ["HTTP_TIMEOUT_SECONDS": "3"])
    #expect(configuration.timeout == .seconds(3))
  }

  @Test func invalidBaseURLIsAConfigurationError() {
    #expect(
      throws: ConfigurationError(
        name: "WEATHER_FORECAST_BASE_URL", value: "api.open-meteo.com",
        expected: "an absolute http or https URL without query, e.g. https://example.com")
    ) {
      try WeatherClient.Configuration(environment: [
        "WEATHER_FORECAST_BASE_URL": "api.open-meteo.com"
      ])
    }
  }

  @Test func invalidTimeoutIsAConfigurationError() {
    let error = #expect(throws: ConfigurationError.self) {
      try WeatherClient.Configuration(environment: ["HTTP_TIMEOUT_SECONDS": "soon"])
    }
    #expect(
      error?.description
        == #"HTTP_TIMEOUT_SECONDS="soon" is not valid: expected a positive number of seconds, e.g. 10 or 0.5"#
    )
  }
}
