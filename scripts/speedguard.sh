#!/usr/bin/env bash
# speedguard.sh: fails when replaying the recorded captures through the Conn
# has become markedly slower against its baselines.
#
# It runs BenchmarkCapturesRatio of ./claude and ./codex (the Conn, the
# encoding/json map baseline and gjson's three fields, paired in one pass:
# see BENCHMARKS.md) three times and takes the best of each ratio, so that
# a noisy run does not fail it; a guard that fails is measured once more
# before the script gives up. The guards sit 20-25% under the ratios
# measured on a quiet machine when they were set (2026-12-01: Claude
# map/conn 4.06-4.17, gjson/conn 0.61-0.62; Codex 3.97-4.06 and
# 0.396-0.408). Load moves the two ratios apart: with both cores busy
# elsewhere, map/conn rose to 5.8-7.1 on Claude (the map baseline's
# collection needs the cores) while gjson/conn fell to 0.52-0.59, hence
# the wider margin under gjson. Claude's gjson guard was 0.45 until
# 2026-12-03, when the same unchanged build measured 0.447-0.497 on the
# machine of the day (0.61 when the guard was set): it sits 20% under
# 0.475, that day's median. The guards are under the issues' targets
# (5 and 1), which are not met: this catches a regression, it does not
# certify the targets. Raise a guard with the ratios when they rise.
#
#   scripts/speedguard.sh            # from the module root
set -euo pipefail
cd "$(dirname "$0")/.."

# package: map/conn and gjson/conn guards
guards="claude 3.3 0.38
codex 3.2 0.30"

# measure PKG sets m and g to the best map/conn and gjson/conn of three
# runs; a benchmark that does not run fails the script.
measure() {
	local out
	if ! out=$(go test -run '^$' -bench 'CapturesRatio$' -benchtime "${BENCHTIME:-150x}" -count 3 "./$1" 2>&1 </dev/null); then
		echo "$out" >&2
		echo "$1: BenchmarkCapturesRatio failed" >&2
		exit 1
	fi
	read -r m g < <(printf '%s\n' "$out" | awk '/^BenchmarkCapturesRatio/ {
			for (i = 2; i <= NF; i++) {
				if ($i == "map/conn" && $(i-1) > m) m = $(i-1)
				if ($i == "gjson/conn" && $(i-1) > g) g = $(i-1)
			}
		} END { print m + 0, g + 0 }')
}

# under MAP GJSON MAPGUARD GJSONGUARD succeeds when a ratio is under its guard.
under() { awk -v m="$1" -v g="$2" -v mg="$3" -v gg="$4" 'BEGIN { exit !(m < mg || g < gg) }'; }

failed=0
while read -r pkg mguard gguard; do
	measure "$pkg"
	if under "$m" "$g" "$mguard" "$gguard"; then
		echo "$pkg: map/conn $m, gjson/conn $g, under a guard: measuring again"
		measure "$pkg"
	fi
	if under "$m" "$g" "$mguard" "$gguard"; then
		echo "$pkg: map/conn $m (guard $mguard), gjson/conn $g (guard $gguard): slower than its guards" >&2
		failed=1
	else
		echo "$pkg: map/conn $m (guard $mguard), gjson/conn $g (guard $gguard)"
	fi
done <<<"$guards"
exit $failed
