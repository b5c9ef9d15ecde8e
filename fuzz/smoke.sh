#!/usr/bin/env bash
# A short fuzzing run for CI: starts from a fresh scratch directory (new
# inputs go there), reads the committed corpus without writing to it, uses
# the harness's dictionary and max_len, and fails on any finding.
set -euo pipefail
bin=$1 scratch=$2 corpus=$3 options=$4 seconds=$5
rm -rf "$scratch" && mkdir -p "$scratch"
args=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$scratch/")
while IFS='=' read -r key value; do
	key=${key// /}; value=${value// /}
	case $key in
	max_len) args+=(-max_len="$value") ;;
	dict) args+=(-dict="$(dirname "$options")/$value") ;;
	esac
done < <(grep '=' "$options")
exec "$bin" "${args[@]}" "$scratch" "$corpus"
