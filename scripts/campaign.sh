#!/usr/bin/env bash
# The main job. Until the differential oracle lands (issue "The differential
# oracle"), the campaign is the IR-level one: every program of the corpus is
# interpreted before and after mem2reg + copy propagation + phi elimination
# under several inline-asm schedules, and any difference is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec scripts/check-corpus.sh "$@"
