//go:build !race

package acpdialect_test

// raceEnabled says the tests run under the race detector, which makes
// allocation-heavy tests ten times slower.
const raceEnabled = false
