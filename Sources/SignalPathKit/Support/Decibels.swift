/// Decibels of an amplitude ratio; −∞ for 0.
func decibels(amplitude: Double) -> Double { 20 * log10(amplitude) }
