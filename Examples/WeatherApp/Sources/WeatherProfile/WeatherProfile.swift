import FrugalKit
import WeatherCore

/// The executable `frugal.yml` names: the good app and its three bad variants.
@main
struct WeatherProfile: FrugalApp {
    static let apps = [
        AppEntry("weather") { WeatherAppDelegate(mode: .good) },
        AppEntry("weather.polling") { WeatherAppDelegate(mode: .polling) },
        AppEntry("weather.main-io") { WeatherAppDelegate(mode: .mainIO) },
        AppEntry("weather.leaks-task") { WeatherAppDelegate(mode: .leaksTask) },
    ]
}
