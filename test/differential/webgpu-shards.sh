#!/usr/bin/env bash
# The WebGPU random differential (webgpu-random.test.ts) as SHARDS processes in parallel, each
# a range of COUNT/SHARDS kernels of one seed, for a many-core machine (the simulator and the
# WGSL compiler are CPU work): each shard appends its progress (a line per 100 kernels, each
# mismatch as found) to DIR/shard-N.txt as it goes, its vitest output to DIR/shard-N.log, and
# at the end the totals are summed from the progress files (also when it is stopped with
# SIGTERM, e.g. by `timeout`: the shards are stopped too and what they did is summed).
#
#   test/differential/webgpu-shards.sh COUNT SHARDS DIR [FIRST]     (seed: GK_DIFF_SEED, default 1)
#
# Each shard reports every 25 kernels (GK_DIFF_WEBGPU_EVERY); GK_VITEST_FLAGS replaces vitest's
# `--project unit` (e.g. `--config FILE`).
#
# e.g. on the GPU machine, after `source bench/webgpu-gpu-setup.sh`:
#   test/differential/webgpu-shards.sh 2000 16 $OUT/diff
set -u
count=$1; shards=$2; dir=$3; first=${4:-0}
mkdir -p "$dir"
per=$(( (count + shards - 1) / shards ))
vitest=$(command -v vitest || echo node_modules/.bin/vitest)
pids=()
summary() {
  local note=$1 ran=0 refused=0 mism=0 finished=0 line f
  for f in "$dir"/shard-*.txt; do
    [ -f "$f" ] || continue
    line=$(grep -oE '[0-9]+ run, [0-9]+ refused for WGSL, [0-9]+ mismatches' "$f" | tail -1)
    [ -n "$line" ] || continue
    grep -q '^done: ' "$f" && finished=$((finished + 1))
    set -- $(tr -cs '0-9' ' ' <<< "$line")
    ran=$((ran + $1)); refused=$((refused + $2)); mism=$((mism + $3))
  done
  echo "webgpu differential shards: $finished of ${#pids[@]} finished; $ran run, $refused refused for WGSL, $mism mismatches (seed ${GK_DIFF_SEED:-1}, kernels $first..$((first + count - 1)))$note" | tee "$dir/summary.txt"
}
# Stopped: each shard's process group (vitest and its workers) stopped, what they did summed.
trap 'for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null; done; summary " (stopped)"; exit 124' TERM INT
for ((i = 0; i < shards; i++)); do
  start=$(( first + i * per )); n=$(( per < first + count - start ? per : first + count - start ))
  [ "$n" -gt 0 ] || break
  GK_DIFF_WEBGPU_START=$start GK_DIFF_WEBGPU_KERNELS=$n GK_DIFF_WEBGPU_PROGRESS="$dir/shard-$i.txt" \
    GK_DIFF_WEBGPU_EVERY=${GK_DIFF_WEBGPU_EVERY:-25} setsid "$vitest" run ${GK_VITEST_FLAGS:---project unit} test/differential/webgpu-random.test.ts > "$dir/shard-$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
summary ""
