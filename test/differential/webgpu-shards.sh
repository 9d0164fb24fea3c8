#!/usr/bin/env bash
# The WebGPU random differential (webgpu-random.test.ts) as SHARDS processes in parallel, each
# a range of COUNT/SHARDS kernels of one seed, for a many-core machine (the simulator and the
# WGSL compiler are CPU work): each shard appends its progress (a line per 100 kernels, each
# mismatch as found) to DIR/shard-N.txt as it goes, its vitest output to DIR/shard-N.log, and
# at the end the totals are summed from the progress files.
#
#   test/differential/webgpu-shards.sh COUNT SHARDS DIR [FIRST]     (seed: GK_DIFF_SEED, default 1)
#
# e.g. on the GPU machine, after `source bench/webgpu-gpu-setup.sh`:
#   test/differential/webgpu-shards.sh 2000 16 $OUT/diff
set -u
count=$1; shards=$2; dir=$3; first=${4:-0}
mkdir -p "$dir"
per=$(( (count + shards - 1) / shards ))
vitest=$(command -v vitest || echo node_modules/.bin/vitest)
pids=()
for ((i = 0; i < shards; i++)); do
  start=$(( first + i * per )); n=$(( per < first + count - start ? per : first + count - start ))
  [ "$n" -gt 0 ] || break
  GK_DIFF_WEBGPU_START=$start GK_DIFF_WEBGPU_KERNELS=$n GK_DIFF_WEBGPU_PROGRESS="$dir/shard-$i.txt" \
    "$vitest" run --project unit test/differential/webgpu-random.test.ts > "$dir/shard-$i.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
# The totals: each shard's last count line.
ran=0; refused=0; mism=0; finished=0
for f in "$dir"/shard-*.txt; do
  line=$(grep -E '[0-9]+ run, [0-9]+ refused for WGSL, [0-9]+ mismatches' "$f" | tail -1)
  [ -n "$line" ] || continue
  grep -q '^done: ' "$f" && finished=$((finished + 1))
  r=$(sed -E 's/.* ([0-9]+) run, ([0-9]+) refused for WGSL, ([0-9]+) mismatches.*/\1 \2 \3/' <<< "$line")
  set -- $r; ran=$((ran + $1)); refused=$((refused + $2)); mism=$((mism + $3))
done
echo "webgpu differential shards: $finished of ${#pids[@]} finished; $ran run, $refused refused for WGSL, $mism mismatches (seed ${GK_DIFF_SEED:-1}, kernels $first..$((first + count - 1)))" | tee "$dir/summary.txt"
