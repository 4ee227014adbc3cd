import Foundation
import struct CoreLocation.CLLocationCoordinate2D

/// A forecast for one place and day.
struct Forecast: Codable, Equatable {
    let city: String
    let high: Double
    let low: Double

    var spread: Double { high - low }
}

protocol ForecastSource {
    func forecast(for city: String) async throws -> Forecast
}

enum WeatherError: Error {
    case unknownCity(String)
}

final class ForecastService: NSObject, ForecastSource {
    private let session: URLSession
    private var cache: [String: Forecast] = [:]

    init(session: URLSession = .shared) {
        self.session = session
        super.init()
    }

    func forecast(for city: String) async throws -> Forecast {
        if let hit = cache[city] { return hit }
        let url = try endpoint(city)
        let (data, _) = try await session.data(from: url)
        let result = try JSONDecoder().decode(Forecast.self, from: data)
        cache[city] = result
        return result
    }

    private func endpoint(_ city: String) throws -> URL {
        guard let url = URL(string: "https://example.com/\(city)") else {
            throw WeatherError.unknownCity(city)
        }
        return url
    }
}

extension Forecast {
    func summary() -> String {
        String(format: "%@: %.0f–%.0f", city, low, high)
    }
}

func celsius(_ fahrenheit: Double) -> Double {
    (fahrenheit - 32) * 5 / 9
}
