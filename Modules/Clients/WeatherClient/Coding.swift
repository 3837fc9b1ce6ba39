import Foundation

extension JSONDecoder {
  /// A decoder for Open-Meteo's JSON: days such as `"2024-05-01"` decode to midnight UTC.
  ///
  /// ```swift
  /// let forecast = try JSONDecoder.openMeteo().decode(Forecast.self, from: data)
  /// ```
  public static func openMeteo() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .formatted(.openMeteoDay())
    return decoder
  }
}

extension JSONEncoder {
  /// An encoder that writes the models as Open-Meteo does: dates as `"yyyy-MM-dd"` (UTC).
  ///
  /// Front ends that serialise ``Forecast`` use it so that ``JSONDecoder/openMeteo()`` reads it
  /// back unchanged.
  public static func openMeteo() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .formatted(.openMeteoDay())
    return encoder
  }
}

extension DateFormatter {
  /// The `yyyy-MM-dd` format of Open-Meteo's days, at UTC, independent of the user's locale.
  public static func openMeteoDay() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.calendar = Calendar(identifier: .iso8601)
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    return formatter
  }
}
