#!/usr/bin/env sh
# Run both benchmarks with the project's virtual environment; extra arguments go to bench_cli.
# Usage: benchmarks/run_all.sh [--importtime]
set -eu
cd "$(dirname "$0")/.."
PY=.venv/bin/python
echo "== $(date -u +%Y-%m-%dT%H:%MZ)  nproc=$(nproc)  $($PY -V)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== bench_odds.py"
$PY benchmarks/bench_odds.py --repeats 7
echo
echo "== bench_cli.py (3 rounds of N=30; timings on a shared machine are noisy)"
$PY benchmarks/bench_cli.py -n 30 --rounds 3 "$@"
