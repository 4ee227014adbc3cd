import Foundation
//     ^^^^^^^^^^ reference imports Foundation
import struct CoreLocation.CLLocationCoordinate2D
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ reference imports CoreLocation.CLLocationCoordinate2D

/// A forecast for one place and day.
struct Forecast: Codable, Equatable {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition struct Forecast [5:0-11:1]
//               ^^^^^^^ reference inherits Codable (from Forecast)
//                        ^^^^^^^^^ reference inherits Equatable (from Forecast)
    let city: String
    let high: Double
    let low: Double

    var spread: Double { high - low }
}

protocol ForecastSource {
// ^^^^^^^^^^^^^^^^^^^^^^^^^ definition interface ForecastSource [13:0-15:1]
    func forecast(for city: String) async throws -> Forecast
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method ForecastSource.forecast
}

enum WeatherError: Error {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum WeatherError [17:0-19:1]
//                 ^^^^^ reference inherits Error (from WeatherError)
    case unknownCity(String)
}

final class ForecastService: NSObject, ForecastSource {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition class ForecastService [21:0-45:1]
//                           ^^^^^^^^ reference inherits NSObject (from ForecastService)
//                                     ^^^^^^^^^^^^^^ reference inherits ForecastSource (from ForecastService)
    private let session: URLSession
    private var cache: [String: Forecast] = [:]

    init(session: URLSession = .shared) {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition constructor ForecastService.init (to 28:5)
        self.session = session
        super.init()
//      ^^^^^^^^^^ reference calls super.init (from ForecastService.init)
    }

    func forecast(for city: String) async throws -> Forecast {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method ForecastService.forecast (to 37:5)
        if let hit = cache[city] { return hit }
        let url = try endpoint(city)
//                    ^^^^^^^^ reference calls endpoint (from ForecastService.forecast)
        let (data, _) = try await session.data(from: url)
//                                ^^^^^^^^^^^^ reference calls session.data (from ForecastService.forecast)
        let result = try JSONDecoder().decode(Forecast.self, from: data)
//                   ^^^^^^^^^^^^^^^^^^^^^^^^ reference calls decode (from ForecastService.forecast)
//                       ^^^^^^^^^^^ reference calls JSONDecoder (from ForecastService.forecast)
        cache[city] = result
        return result
    }

    private func endpoint(_ city: String) throws -> URL {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method ForecastService.endpoint (to 44:5)
        guard let url = URL(string: "https://example.com/\(city)") else {
//                      ^^^ reference calls URL (from ForecastService.endpoint)
            throw WeatherError.unknownCity(city)
//                ^^^^^^^^^^^^^^^^^^^^^^^^ reference calls WeatherError.unknownCity (from ForecastService.endpoint)
        }
        return url
    }
}

extension Forecast {
    func summary() -> String {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^^ definition method Forecast.summary (to 50:5)
        String(format: "%@: %.0f–%.0f", city, low, high)
//      ^^^^^^ reference calls String (from Forecast.summary)
    }
}

func celsius(_ fahrenheit: Double) -> Double {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function celsius [53:0-55:1]
    (fahrenheit - 32) * 5 / 9
}
// ----- travsr snapshot: Sources/Weather/Forecast.swift (swift, phase A, status ok) -----
// node file <file> (Forecast.swift)
// skeleton Forecast.summary: "func summary() -> String"
// skeleton Forecast: "/// A forecast for one place and day.\nstruct Forecast: Codable, Equatable"
// skeleton ForecastService.endpoint: "private func endpoint(_ city: String) throws -> URL"
// skeleton ForecastService.forecast: "func forecast(for city: String) async throws -> Forecast"
// skeleton ForecastService.init: "init(session: URLSession = .shared)"
// skeleton ForecastService: "final class ForecastService: NSObject, ForecastSource"
// skeleton ForecastSource.forecast: "func forecast(for city: String) async throws -> Forecast"
// skeleton ForecastSource: "protocol ForecastSource"
// skeleton WeatherError: "enum WeatherError: Error"
// skeleton celsius: "func celsius(_ fahrenheit: Double) -> Double"
// edge contains <file> -> Forecast (confidence 1, phase-a)
// edge contains <file> -> Forecast.summary (confidence 1, phase-a)
// edge contains <file> -> ForecastService (confidence 1, phase-a)
// edge contains <file> -> ForecastSource (confidence 1, phase-a)
// edge contains <file> -> WeatherError (confidence 1, phase-a)
// edge contains <file> -> celsius (confidence 1, phase-a)
// edge contains ForecastService -> ForecastService.endpoint (confidence 1, phase-a)
// edge contains ForecastService -> ForecastService.forecast (confidence 1, phase-a)
// edge contains ForecastService -> ForecastService.init (confidence 1, phase-a)
// edge contains ForecastSource -> ForecastSource.forecast (confidence 1, phase-a)
