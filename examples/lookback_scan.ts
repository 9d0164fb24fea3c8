// Inclusive prefix sum in one pass, examples/lookback_scan.gk written in TypeScript: a decoupled look-back scan. Blocks number their tiles in
// the order they start (an atomic ticket), scan their tile in shared memory, and publish its
// sum; each then looks back at the tiles before it, adding their sums until it meets one whose
// inclusive prefix is known, and publishes its own prefix for the tiles after it.
//
// Publishing crosses blocks, so the accesses are ordered (spec/language.md, Memory model):
// a tile's sum is written, then a device fence, then its status with a volatile store; its
// prefix with a release store; the look-back reads the status with acquire loads, which make
// the sum or prefix written before the status visible. Waiting only on lower tickets means
// waiting only on blocks that have started, so the scan cannot deadlock on a GPU.
import { atomicAdd, barrier, i32, kernel, loadAcquire, shared, storeRelease, storeVolatile, threadfence, threadIdx, u32, type Global, type ReadonlyGlobal } from "gk";

const BLOCK = 256;
// A tile's status: nothing published yet, its sum (aggregate) known, its inclusive prefix known.
const EMPTY = 0;
const AGGREGATE = 1;
const PREFIX = 2;

export const scan = kernel((n: i32, x: ReadonlyGlobal<u32>, y: Global<u32>, status: Global<u32>,
                            aggregates: Global<u32>, prefixes: Global<u32>, ticket: Global<u32>) => {
  const tile = shared(u32, BLOCK);
  let tileId = shared(i32);
  let before = shared(u32);
  const t = threadIdx.x;
  if (t == 0) {
    tileId = i32(atomicAdd(ticket, 0, 1));
  }
  barrier();
  const b = tileId;
  const i = b * BLOCK + t;
  tile[t] = i < n ? x[i]! : 0;
  barrier();
  // The tile's inclusive scan (Hillis-Steele): log2(BLOCK) steps.
  for (let d = 1; d < BLOCK; d *= 2) {
    const v = t >= d ? tile[t - d]! : 0;
    barrier();
    tile[t] += v;
    barrier();
  }
  if (t == 0) {
    const sum = tile[BLOCK - 1]!;
    if (b == 0) {
      prefixes[0] = sum;
      storeRelease(status, 0, PREFIX);
      before = 0;
    } else {
      aggregates[b] = sum;
      threadfence();
      storeVolatile(status, b, AGGREGATE);
      // Look back: add the sums of the tiles before this one, down to one with a known prefix.
      let exclusive: u32 = 0;
      let p = b - 1;
      while (true) {
        const s = loadAcquire(status, p);
        if (s == PREFIX) {
          exclusive += prefixes[p]!;
          break;
        }
        if (s == AGGREGATE) {
          exclusive += aggregates[p]!;
          p--;
        }
      }
      prefixes[b] = exclusive + sum;
      storeRelease(status, b, PREFIX);
      before = exclusive;
    }
  }
  barrier();
  if (i < n) {
    y[i] = tile[t]! + before;
  }
});
