#!/usr/bin/env bash
# benchpairs.sh PASSES REGEX PAIRS BINARY...
#
# Runs the benchmarks matching REGEX of each test BINARY (built with
# `go test -c`), PASSES times, alternating the binaries, and prints for each
# binary and each pair "Inbound:Baseline" in PAIRS (comma-separated) the
# median over the passes of baseline/Conn ns/op taken within one pass, with
# the range. On a noisy shared machine such ratios are stable where the
# absolute figures are not. Run it from the package directory (testdata).
#
#   go test -c -o /tmp/new.test . && scripts/benchpairs.sh 8 . \
#     InboundSubagentState:BaselineSubagentState /tmp/new.test
set -euo pipefail
passes=$1 regex=$2 pairs=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for pass in $(seq "$passes"); do
	for bin in "$@"; do
		"$bin" -test.run '^$' -test.bench "$regex" -test.benchtime "${BENCHTIME:-400ms}" |
			awk -v bin="$bin" -v pass="$pass" '/^Benchmark/ && $4 == "ns/op" { sub(/-[0-9]+$/, "", $1); print bin, pass, $1, $3 }' >>"$out"
	done
done
for bin in "$@"; do
	for pair in ${pairs//,/ }; do
		conn=Benchmark${pair%%:*} base=Benchmark${pair##*:}
		awk -v bin="$bin" -v c="$conn" -v b="$base" '
			$1 == bin && $3 == c { t[$2] = $4 }
			$1 == bin && $3 == b { u[$2] = $4 }
			END { for (p in t) if (p in u) print u[p] / t[p] }' "$out" | sort -g |
			awk -v bin="$bin" -v pair="$pair" '{ r[NR] = $1 }
				END { if (NR == 0) exit; m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
				      printf "%s %s: median %.2fx (%.2f-%.2f, %d passes)\n", bin, pair, m, r[1], r[NR], NR }'
	done
done
