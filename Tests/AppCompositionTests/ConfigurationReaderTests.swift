import AppConfiguration
import ArgumentParser
import Foundation
import Testing
import WebRoutes

@testable import AppComposition
@testable import AppTerminal

/// Flags over environment over defaults, and one message for a bad value wherever it came from.
struct ConfigurationReaderTests {
  @Test func aFlagWinsOverItsVariable() throws {
    let options = try ClientOptions.parse(["--fact-url", "http://flag.test"])
    let settings = options.settings(environment: [
      "FACT_BASE_URL": "http://variable.test", "RANDOM_NUMBER_BASE_URL": "http://variable.test",
    ])
    let fallback = URL(string: "http://default.test")!
    #expect(try settings.url("FACT_BASE_URL", default: fallback).host == "flag.test")
    #expect(try settings.url("RANDOM_NUMBER_BASE_URL", default: fallback).host == "variable.test")
    #expect(try settings.url("WEATHER_FORECAST_BASE_URL", default: fallback) == fallback)
  }

  @Test func timeoutFlagReplacesEveryClientsOwnVariable() throws {
    let options = try ClientOptions.parse(["--timeout", "3"])
    let settings = options.settings(environment: [
      "FACT_TIMEOUT_SECONDS": "20", "HTTP_TIMEOUT_SECONDS": "30",
    ])
    #expect(try settings.timeout("FACT_TIMEOUT_SECONDS", default: .seconds(10)) == .seconds(3))
    #expect(try settings.timeout("WEATHER_TIMEOUT_SECONDS", default: .seconds(10)) == .seconds(3))
    let withoutFlag = try ClientOptions.parse([]).settings(environment: [
      "FACT_TIMEOUT_SECONDS": "20", "HTTP_TIMEOUT_SECONDS": "30",
    ])
    #expect(try withoutFlag.timeout("FACT_TIMEOUT_SECONDS", default: .seconds(10)) == .seconds(20))
    #expect(
      try withoutFlag.timeout("WEATHER_TIMEOUT_SECONDS", default: .seconds(10)) == .seconds(30))
  }

  @Test func aBadVariableIsNamedWithItsValue() {
    let settings = ConfigurationReader(["HTTP_TIMEOUT_SECONDS": "soon"])
    #expect(
      throws: ConfigurationError(
        name: "HTTP_TIMEOUT_SECONDS", value: "soon",
        expected: "a positive number of seconds, e.g. 10 or 0.5")
    ) {
      try settings.seconds("HTTP_TIMEOUT_SECONDS", default: .seconds(1))
    }
  }

  @Test func aBadFlagStopsParsingWithTheSameMessageInBothExecutables() {
    let expected = #"--timeout="soon" is not valid: expected a positive number of seconds"#
    for parse in [
      { _ = try ClientOptions.parse(["--timeout", "soon"]) },
      { _ = try ServerCommand.parse(["--timeout", "soon"]) },
    ] as [() throws -> Void] {
      do {
        try parse()
        Issue.record("a bad --timeout was accepted")
      } catch {
        #expect(ServerCommand.message(for: error).contains(expected))
        #expect(ServerCommand.exitCode(for: error) == .validationFailure)
      }
    }
  }

  @Test func emptyVariablesAreUnset() throws {
    let settings = ConfigurationReader(["APP_SERVER_HOST": "  ", "LOG_LEVEL": ""])
    #expect(settings.string("APP_SERVER_HOST") == nil)
    let (configuration, level) = try ServerCommand.serverSettings(settings)
    #expect(configuration.host == "127.0.0.1")
    #expect(level == .info)
  }

  @Test(arguments: [
    ("LOG_LEVEL", "garbage", "a log level"),
    ("APP_SERVER_PORT", "70000", "a port in 0...65535"),
    ("APP_SERVER_MAX_SESSIONS", "0", "a whole number, at least 1"),
    ("APP_SERVER_IDLE_TIMEOUT_SECONDS", "-1", "a positive number of seconds"),
    ("APP_SERVER_ACTIONS_PER_SECOND", "nan", "a positive number"),
    ("FAVORITE_FAILURE_RATE", "2", "a number between 0 and 1"),
    ("APP_SERVER_SECURE_COOKIES", "maybe", "true or false"),
    ("APP_SERVER_ALLOWED_HOSTS", "a.test,,b.test", "host names or addresses"),
  ])
  func aBadServerVariableStopsTheServer(variable: String, value: String, expected: String) {
    #expect {
      _ = try ServerCommand.serverSettings(ConfigurationReader([variable: value]))
    } throws: { error in
      let error = error as? ConfigurationError
      return error?.name == variable && error?.value == value
        && error?.expected.hasPrefix(expected) == true
    }
  }

  @Test func serverFlagsOverrideVariablesAndAreCheckedAlike() throws {
    let command = try ServerCommand.parse([
      "--port", "9000", "--allowed-host", "a.test", "--allowed-host", "b.test", "--secure-cookies",
      "--log-level", "debug",
    ])
    let (configuration, level) = try ServerCommand.serverSettings(
      command.settings(environment: [
        "APP_SERVER_PORT": "7000", "APP_SERVER_ALLOWED_HOSTS": "c.test", "LOG_LEVEL": "error",
        "APP_SERVER_MAX_SESSIONS": "7",
      ]))
    #expect(configuration.port == 9000)
    #expect(configuration.security.allowedHosts == ["a.test", "b.test"])
    #expect(configuration.security.secureCookies)
    #expect(configuration.sessions.maximumSessionCount == 7)
    #expect(level == .debug)

    #expect {
      _ = try ServerCommand.parse(["--port", "70000"])
    } throws: { error in
      ServerCommand.message(for: error).contains(
        #"--port="70000" is not valid: expected a port in 0...65535"#)
    }
  }

  @Test func aDatabaseURLAndAFileAreNotBothTaken() throws {
    #expect(throws: ConflictingOptionsError.self) {
      try ConfigurationReader(["DATABASE_URL": "postgres://a@b/c", "APP_DATABASE": "x.sqlite"])
        .storage()
    }
    #expect(throws: (any Error).self) {
      _ = try StorageOptions<ServerCommand>.parse([
        "--database", "x.sqlite", "--database-url", "postgres://a@b/c",
      ])
    }
    #expect(try ConfigurationReader([:]).storage() == .sqlite(path: nil))
    #expect(
      try ConfigurationReader(
        [:], flags: StorageOptions<ServerCommand>.parse(["--database", ":memory:"]).flagValues
      ).storage() == .sqlite(path: ":memory:"))
  }

  @Test func oneShotCommandsDoNotOfferStorageFlags() throws {
    // They keep nothing, so `--database` is an unknown option there, and their help omits it.
    #expect(throws: (any Error).self) { _ = try ClientOptions.parse(["--database", "x.sqlite"]) }
    #expect(!ClientOptions.helpMessage().contains("--database"))
    #expect(
      StorageOptions<ServerCommand>.helpMessage().contains("composable-app/app-server.sqlite"))
    #expect(ServerCommand.helpMessage().contains("--database"))
  }

  @Test func optionsMayComeBeforeTheSubcommand() throws {
    let search = try #require(try AppCLI.parse(["--offline", "search", "seo"]) as? SearchCommand)
    #expect(search.query == "seo")
    #expect(search.clientOptions.offline)
    let line = ["--offline", "--timeout", "3", "forecast", "--latitude", "1", "--longitude", "2"]
    let forecast = try #require(try AppCLI.parse(line) as? ForecastCommand)
    #expect(forecast.clientOptions.offline)
    #expect(forecast.latitude == 1)
    // Without a subcommand they stay the interactive app's.
    #expect(try AppCLI.parse(["--offline"]) is Interactive)
    // What is wrong either way is refused as it was.
    #expect(throws: (any Error).self) { try AppCLI.parse(["--offline", "search"]) }
    #expect(throws: (any Error).self) { try AppCLI.parse(["--unknown", "search", "seo"]) }
  }

  @Test func aNumberTooLargeIsOutOfRangeNotAWord() {
    for (line, message) in [
      (["fact", "99999999999999999999"], "is out of range"),
      (["fact", "-99999999999999999999"], "is out of range"),
      (["fact", "many"], "is not a whole number"),
      (["fact", "--many"], "Unknown option '--many'"),
    ] {
      #expect {
        _ = try AppCLI.parse(line)
      } throws: { error in
        AppCLI.message(for: error).contains(message)
      }
    }
  }

  @Test func theInteractiveAppTakesTheFavoritesFailureRateAsTheServersDo() throws {
    let interactive = try #require(
      try AppCLI.parse(["--offline", "--favorite-failure-rate", "0.5"]) as? Interactive)
    let settings = ConfigurationReader([:], flags: interactive.storageFlags)
    #expect(try settings.favoriteFailureRate() == 0.5)
    #expect {
      _ = try AppCLI.parse(["--favorite-failure-rate", "2"])
    } throws: { error in
      AppCLI.message(for: error).contains(#"--favorite-failure-rate="2" is not valid"#)
    }
  }

  @Test func bothExecutablesPrintTheirVersion() {
    #expect {
      _ = try ServerCommand.parseAsRoot(["--version"])
    } throws: { error in
      ServerCommand.message(for: error) == AppVersion.current
        && ServerCommand.exitCode(for: error) == .success
    }
    #expect {
      _ = try AppCLI.parseAsRoot(["--version"])
    } throws: { error in
      AppCLI.message(for: error) == AppVersion.current && AppCLI.exitCode(for: error) == .success
    }
  }
}
