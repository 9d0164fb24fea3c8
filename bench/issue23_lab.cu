// Issue 23's laboratory (bench/issue23_lab.py compiles it with NVRTC through CuPy and times it
// beside torch in one process): hand-written CUDA twins of gk/std/scan's scanPacked and
// gk/std/reduce's reduce, with switches that take one part away or change one thing at a time,
// to find where the scan's time goes at 2^26 and what moves it. Not part of the library: a
// variant that measures faster is then written in .gk (stdlib/scan.gk, stdlib/reduce.gk).
//
// scanv<T, BLOCK, ITEMS, MINB, MODE, LH, SH, SPREAD, BACKOFF, TICKET, TL>:
//   MODE 0 the scan (scanPacked's tiles, order and look-back: one warp, 32 tiles a round);
//        1 no look-back (each tile scanned alone: wrong sums past tile 0, the time without the
//          dependence between tiles); 2 the tile loaded into registers, a barrier, stored
//          (no arithmetic: the shape's copy speed); 3 the scan with the tile's aggregate from
//          a reduction first (published before the warps scan their chunks).
//   LH loads: 0 plain, 1 ld.global.cs, 2 ld.global.nc.L1::no_allocate.L2::256B, 3 ld.global.L2::256B.
//   SH stores: 0 plain, 1 st.global.cs.
//   SPREAD: status word of tile b at words[b * SPREAD] (16: one 128-byte line a tile).
//   BACKOFF: nanoseconds of __nanosleep between polls that found an empty tile (0: none).
//   TICKET: 1 tile from an atomic ticket (the library), 0 tile = blockIdx.x.
//   TL: 1 records a timeline of each tile into tl[8 b ..]: SM << 48 | polls << 16 | windows, then
//   globaltimer at the block's start, its warp's chunks scanned (thread 0), the first barrier, the
//   look-back done, the second barrier, its stores issued, and after the ticket.
// scanPipe<T, BLOCK, ITEMS, MINB, LH, SH>: persistent blocks (grid = resident blocks), each
//   tile's loads issued before the previous tile's scan, look-back and stores (two register
//   buffers of ITEMS a thread), tiles from the atomic ticket.
// reducev<T, OP, BLOCK, UNROLL, LH, FOLD>: reduce's grid-stride fold with UNROLL vector loads
//   issued before they are combined (the same order of combination), OP 0 sum 2 max; FOLD 0 the
//   last block folds the partials 256 threads in a loop (the library), 1 all loaded at once.

typedef unsigned long long u64;
typedef unsigned int u32;

__device__ __forceinline__ u64 gtime() { u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ u32 smid() { u32 s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

template <typename T> __device__ __forceinline__ T fromBits(u32 u);
template <> __device__ __forceinline__ float fromBits<float>(u32 u) { return __uint_as_float(u); }
template <> __device__ __forceinline__ int fromBits<int>(u32 u) { return (int)u; }
template <typename T> __device__ __forceinline__ u32 toBits(T v);
template <> __device__ __forceinline__ u32 toBits<float>(float v) { return __float_as_uint(v); }
template <> __device__ __forceinline__ u32 toBits<int>(int v) { return (u32)v; }

template <int LH> __device__ __forceinline__ uint4 ld4(const void* p) {
  uint4 r;
  if (LH == 0) {
    r = *(const uint4*)p;
  } else if (LH == 1) {
    r = __ldcs((const uint4*)p);
  } else if (LH == 2) {
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  } else {
    asm volatile("ld.global.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  }
  return r;
}
template <int SH> __device__ __forceinline__ void st4(void* p, uint4 v) {
  if (SH == 0) {
    *(uint4*)p = v;
  } else {
    __stcs((uint4*)p, v);
  }
}

template <typename T> __device__ __forceinline__ T warpScan(T v) {
  const int lane = threadIdx.x & 31;
  T x = v;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x = y + x;
  }
  return x;
}
template <typename T> __device__ __forceinline__ T warpSum(T v) {
  T x = v;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) x = x + __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}

// The warp's scans of its runs of four (sums four[j], j = 0..N-1, each lane's run j in order):
// before[j] is what precedes the lane's run j within the warp's runs, the result the warp's
// total (scanPacked's order: gk/std/scan).
template <typename T, int N>
__device__ __forceinline__ T chunkScans(const T (&four)[N], T (&before)[N]) {
  const int lane = threadIdx.x & 31;
  T total = T(0);
#pragma unroll
  for (int j = 0; j < N; j++) {
    const T incl = warpScan(four[j]);
    const T excl = __shfl_up_sync(0xffffffffu, incl, 1);
    before[j] = lane == 0 ? total : total + excl;
    total = total + __shfl_sync(0xffffffffu, incl, 31);
  }
  return total;
}
// The sums of a thread's runs of four: elements v[4j..4j+3], or the lanes of buf[j] (raw bits).
template <typename T, int N>
__device__ __forceinline__ void fours(const T (&v)[4 * N], T (&four)[N]) {
#pragma unroll
  for (int j = 0; j < N; j++) four[j] = (v[4 * j] + v[4 * j + 1]) + (v[4 * j + 2] + v[4 * j + 3]);
}
template <typename T, int N>
__device__ __forceinline__ void fours(const uint4 (&buf)[N], T (&four)[N]) {
#pragma unroll
  for (int j = 0; j < N; j++) four[j] = (fromBits<T>(buf[j].x) + fromBits<T>(buf[j].y)) + (fromBits<T>(buf[j].z) + fromBits<T>(buf[j].w));
}

__device__ __forceinline__ u64 tileWord(u32 epoch, u32 status, u32 bits) { return ((u64)epoch << 34) | ((u64)status << 32) | bits; }

// The combination of tiles 0 .. b-1 (scanPacked's lookBackWords with one window); *polls counts
// the rounds that found an empty tile, *windows the windows combined.
template <typename T, int SPREAD, int BACKOFF>
__device__ __forceinline__ T lookBack(int b, u64* words, u32 epoch, int* polls, int* windows) {
  const int lane = threadIdx.x & 31;
  T exclusive = T(0);
  int end = b - 1;
  for (;;) {
    const int q = end - lane;
    const u64 word = q >= 0 ? *(volatile u64*)&words[(long long)q * SPREAD] : tileWord(epoch, 2, 0);
    const u32 s = (u32)(word >> 34) == epoch ? (u32)(word >> 32) & 3u : 0u;
    const u32 stops = __ballot_sync(0xffffffffu, s != 1u);
    const u32 nearest = stops & (~stops + 1u);
    if (__ballot_sync(0xffffffffu, s == 0u) & nearest) {
      ++*polls;
      if (BACKOFF) __nanosleep(BACKOFF);
      continue;
    }
    const int first = stops == 0u ? 32 : __ffs(stops) - 1;
    const T mine = lane <= first ? fromBits<T>((u32)word) : T(0);
    exclusive = warpSum(mine) + exclusive;
    ++*windows;
    if (stops) break;
    end -= 32;
  }
  return exclusive;
}

template <typename T, int BLOCK, int ITEMS, int MINB, int MODE, int LH, int SH, int SPREAD, int BACKOFF, int TICKET, int TL>
__global__ void __launch_bounds__(BLOCK, MINB) scanv(int n, const T* __restrict__ x, T* __restrict__ y, u64* words, u32* ticket, u32 epoch, u32 ticketBase, u64* tl) {
  __shared__ T warpBase[32];
  __shared__ int tileId;
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
  if (TL && t == 0) t0 = gtime();
  if (TICKET) {
    if (t == 0) tileId = (int)(atomicAdd(ticket, 1u) - ticketBase);
    __syncthreads();
  }
  const int b = TICKET ? tileId : (int)blockIdx.x;
  u64 tk = 0;
  if (TL && t == 0) tk = gtime();
  const long long run = (long long)b * (BLOCK * ITEMS) + (long long)w * (32 * ITEMS);
  uint4 raw[ITEMS / 4];
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) raw[j] = ld4<LH>(&x[run + j * 128 + lane * 4]);
  if (MODE == 2) {
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS / 4; j++) st4<SH>(&y[run + j * 128 + lane * 4], raw[j]);
    return;
  }
  T v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) {
    v[4 * j] = fromBits<T>(raw[j].x);
    v[4 * j + 1] = fromBits<T>(raw[j].y);
    v[4 * j + 2] = fromBits<T>(raw[j].z);
    v[4 * j + 3] = fromBits<T>(raw[j].w);
  }
  T before[ITEMS / 4];
  T total = T(0);
  if (MODE == 3) {
    // The warp's total first (lane sums, a butterfly), the chunk scans after the aggregate is out.
    T mineSum = T(0);
#pragma unroll
    for (int j = 0; j < ITEMS / 4; j++) mineSum = mineSum + ((v[4 * j] + v[4 * j + 1]) + (v[4 * j + 2] + v[4 * j + 3]));
    total = warpSum(mineSum);
  } else {
    T four[ITEMS / 4];
    fours(v, four);
    total = chunkScans(four, before);
  }
  if (TL && t == 0) t1 = gtime();
  if (lane == 31) warpBase[w] = total;
  __syncthreads();
  if (TL && t == 0) t2 = gtime();
  int polls = 0, windows = 0;
  if (w == 0) {
    const T incl = warpScan(lane < BLOCK / 32 ? warpBase[lane] : T(0));
    const T aggregate = __shfl_sync(0xffffffffu, incl, 31);
    const T warpBefore = __shfl_up_sync(0xffffffffu, incl, 1);
    T exclusive = T(0);
    if (MODE != 1) {
      if (b == 0) {
        if (t == 0) *(volatile u64*)&words[0] = tileWord(epoch, 2, toBits<T>(aggregate));
      } else {
        if (t == 0) *(volatile u64*)&words[(long long)b * SPREAD] = tileWord(epoch, 1, toBits<T>(aggregate));
        exclusive = lookBack<T, SPREAD, BACKOFF>(b, words, epoch, &polls, &windows);
        if (t == 0) *(volatile u64*)&words[(long long)b * SPREAD] = tileWord(epoch, 2, toBits<T>(exclusive + aggregate));
      }
    }
    if (TL && t == 0) t3 = gtime();
    if (lane < BLOCK / 32) warpBase[lane] = lane == 0 ? exclusive : exclusive + warpBefore;
  }
  if (MODE == 3) {
    T four[ITEMS / 4];
    fours(v, four);
    total = chunkScans(four, before);
  }
  __syncthreads();
  if (TL && t == 0) t4 = gtime();
  const T base = warpBase[w];
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) {
    T acc = base + before[j];
#pragma unroll
    for (int c = 0; c < 4; c++) {
      acc = acc + v[4 * j + c];
      v[4 * j + c] = acc;
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) {
    uint4 o;
    o.x = toBits<T>(v[4 * j]);
    o.y = toBits<T>(v[4 * j + 1]);
    o.z = toBits<T>(v[4 * j + 2]);
    o.w = toBits<T>(v[4 * j + 3]);
    st4<SH>(&y[run + j * 128 + lane * 4], o);
  }
  if (TL && t == 0) {
    const u64 t5 = gtime();
    u64* r = tl + (long long)b * 8;
    r[0] = ((u64)smid() << 48) | ((u64)(u32)polls << 16) | (u32)windows;
    r[1] = t0;
    r[2] = t1;
    r[3] = t2;
    r[4] = t3;
    r[5] = t4;
    r[6] = t5;
    r[7] = tk;
  }
}

// One tile of scanPipe: buf holds tile b's elements (raw bits), already loaded or in flight.
template <typename T, int BLOCK, int ITEMS, int SH>
__device__ __forceinline__ void pipeTile(uint4 (&buf)[ITEMS / 4], int b, T* __restrict__ y, u64* words, u32 epoch, T* warpBase) {
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  const long long run = (long long)b * (BLOCK * ITEMS) + (long long)w * (32 * ITEMS);
  T before[ITEMS / 4];
  T four[ITEMS / 4];
  fours(buf, four);
  const T total = chunkScans(four, before);
  if (lane == 31) warpBase[w] = total;
  __syncthreads();
  if (w == 0) {
    int polls = 0, windows = 0;
    const T incl = warpScan(lane < BLOCK / 32 ? warpBase[lane] : T(0));
    const T aggregate = __shfl_sync(0xffffffffu, incl, 31);
    const T warpBefore = __shfl_up_sync(0xffffffffu, incl, 1);
    T exclusive = T(0);
    if (b == 0) {
      if (t == 0) *(volatile u64*)&words[0] = tileWord(epoch, 2, toBits<T>(aggregate));
    } else {
      if (t == 0) *(volatile u64*)&words[b] = tileWord(epoch, 1, toBits<T>(aggregate));
      exclusive = lookBack<T, 1, 0>(b, words, epoch, &polls, &windows);
      if (t == 0) *(volatile u64*)&words[b] = tileWord(epoch, 2, toBits<T>(exclusive + aggregate));
    }
    if (lane < BLOCK / 32) warpBase[lane] = lane == 0 ? exclusive : exclusive + warpBefore;
  }
  __syncthreads();
  const T base = warpBase[w];
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) {
    T acc = base + before[j];
    uint4 o;
    acc = acc + fromBits<T>(buf[j].x); o.x = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].y); o.y = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].z); o.z = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].w); o.w = toBits<T>(acc);
    st4<SH>(&y[run + j * 128 + lane * 4], o);
  }
}

template <typename T, int BLOCK, int ITEMS, int LH>
__device__ __forceinline__ void pipeLoad(uint4 (&buf)[ITEMS / 4], int b, const T* __restrict__ x) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const long long run = (long long)b * (BLOCK * ITEMS) + (long long)w * (32 * ITEMS);
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) buf[j] = ld4<LH>(&x[run + j * 128 + lane * 4]);
}

template <typename T, int BLOCK, int ITEMS, int MINB, int LH, int SH>
__global__ void __launch_bounds__(BLOCK, MINB) scanPipe(int n, const T* __restrict__ x, T* __restrict__ y, u64* words, u32* ticket, u32 epoch, u32 ticketBase, int tiles) {
  __shared__ T warpBase[32];
  __shared__ int tileId[2];
  const int t = threadIdx.x;
  uint4 a[ITEMS / 4], c[ITEMS / 4];
  if (t == 0) tileId[0] = (int)(atomicAdd(ticket, 1u) - ticketBase);
  __syncthreads();
  int cur = tileId[0];
  if (cur >= tiles) return;
  pipeLoad<T, BLOCK, ITEMS, LH>(a, cur, x);
  for (;;) {
    if (t == 0) tileId[1] = (int)(atomicAdd(ticket, 1u) - ticketBase);
    __syncthreads();
    int next = tileId[1];
    if (next < tiles) pipeLoad<T, BLOCK, ITEMS, LH>(c, next, x);
    pipeTile<T, BLOCK, ITEMS, SH>(a, cur, y, words, epoch, warpBase);
    if (next >= tiles) return;
    cur = next;
    if (t == 0) tileId[0] = (int)(atomicAdd(ticket, 1u) - ticketBase);
    __syncthreads();
    next = tileId[0];
    if (next < tiles) pipeLoad<T, BLOCK, ITEMS, LH>(a, next, x);
    pipeTile<T, BLOCK, ITEMS, SH>(c, cur, y, words, epoch, warpBase);
    if (next >= tiles) return;
    cur = next;
  }
}

template <typename T, int OP> __device__ __forceinline__ T comb(T a, T b) { return OP == 0 ? a + b : (OP == 2 ? fmaxf(a, b) : a); }
template <typename T, int OP> __device__ __forceinline__ T ident() { return OP == 0 ? T(0) : T(-__int_as_float(0x7f800000)); }
template <typename T, int OP> __device__ __forceinline__ T combQuad(uint4 q) {
  return comb<T, OP>(comb<T, OP>(fromBits<T>(q.x), fromBits<T>(q.y)), comb<T, OP>(fromBits<T>(q.z), fromBits<T>(q.w)));
}

template <typename T, int OP, int BLOCK, int UNROLL, int LH, int FOLD>
__global__ void __launch_bounds__(BLOCK) reducev(int n, const T* __restrict__ x, T* out, T* partial, u32* counter) {
  __shared__ T scratch[32];
  __shared__ bool last;
  const int stride = gridDim.x * BLOCK;
  T acc = ident<T, OP>();
  const int quads = n / 4;
  int q = blockIdx.x * BLOCK + threadIdx.x;
  for (; q + (UNROLL - 1) * stride < quads; q += UNROLL * stride) {
    uint4 r[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; u++) r[u] = ld4<LH>(&x[(long long)(q + u * stride) * 4]);
#pragma unroll
    for (int u = 0; u < UNROLL; u++) acc = comb<T, OP>(acc, combQuad<T, OP>(r[u]));
  }
  for (; q < quads; q += stride) acc = comb<T, OP>(acc, combQuad<T, OP>(ld4<LH>(&x[(long long)q * 4])));
  for (int i = quads * 4 + blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride) acc = comb<T, OP>(acc, x[i]);
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  // blockReduce: butterflies, warps' results in scratch, every warp folds them.
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) acc = comb<T, OP>(acc, __shfl_xor_sync(0xffffffffu, acc, d));
  if (lane == 0) scratch[w] = acc;
  __syncthreads();
  T all = lane < BLOCK / 32 ? scratch[lane] : ident<T, OP>();
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) all = comb<T, OP>(all, __shfl_xor_sync(0xffffffffu, all, d));
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = all;
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  T acc2 = ident<T, OP>();
  if (FOLD == 0) {
    for (int b = threadIdx.x; b < gridDim.x; b += BLOCK) acc2 = comb<T, OP>(acc2, *(volatile T*)&partial[b]);
  } else {
    T got[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int b = threadIdx.x + k * BLOCK;
      got[k] = b < gridDim.x ? *(volatile T*)&partial[b] : ident<T, OP>();
    }
#pragma unroll
    for (int k = 0; k < 8; k++) acc2 = comb<T, OP>(acc2, got[k]);
    for (int b = threadIdx.x + 8 * BLOCK; b < gridDim.x; b += BLOCK) acc2 = comb<T, OP>(acc2, *(volatile T*)&partial[b]);
  }
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) acc2 = comb<T, OP>(acc2, __shfl_xor_sync(0xffffffffu, acc2, d));
  __syncthreads();
  if (lane == 0) scratch[w] = acc2;
  __syncthreads();
  if (threadIdx.x < 32) {
    T a2 = lane < BLOCK / 32 ? scratch[lane] : ident<T, OP>();
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) a2 = comb<T, OP>(a2, __shfl_xor_sync(0xffffffffu, a2, d));
    if (threadIdx.x == 0) {
      out[0] = a2;
      counter[0] = 0u;
    }
  }
}

// scanPipe2: persistent blocks as scanPipe, with each tile's aggregate published as soon as its
// elements are in (before the look-back of the tile before it in the block), so that a tile drawn
// ahead holds no other tile's look-back back: per block, draw tile p, issue p's loads, look back
// and store the current tile c, then reduce p, publish p's aggregate; p becomes current.
template <typename T, int BLOCK, int ITEMS>
__device__ __forceinline__ void pipe2Reduce(const uint4 (&buf)[ITEMS / 4], T (&before)[ITEMS / 4], int b, u64* words, u32 epoch, T* totals, T& aggregate, T& warpBefore) {
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  T four[ITEMS / 4];
  fours(buf, four);
  const T total = chunkScans(four, before);
  if (lane == 31) totals[w] = total;
  __syncthreads();
  if (w == 0) {
    const T incl = warpScan(lane < BLOCK / 32 ? totals[lane] : T(0));
    aggregate = __shfl_sync(0xffffffffu, incl, 31);
    warpBefore = __shfl_up_sync(0xffffffffu, incl, 1);
    if (t == 0) *(volatile u64*)&words[b] = tileWord(epoch, b == 0 ? 2 : 1, toBits<T>(aggregate));
  }
}

template <typename T, int BLOCK, int ITEMS, int SH>
__device__ __forceinline__ void pipe2Finish(const uint4 (&buf)[ITEMS / 4], const T (&before)[ITEMS / 4], int b, T* __restrict__ y, u64* words, u32 epoch, T* bases, T aggregate, T warpBefore) {
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  if (w == 0) {
    int polls = 0, windows = 0;
    T exclusive = T(0);
    if (b != 0) {
      exclusive = lookBack<T, 1, 0>(b, words, epoch, &polls, &windows);
      if (t == 0) *(volatile u64*)&words[b] = tileWord(epoch, 2, toBits<T>(exclusive + aggregate));
    }
    if (lane < BLOCK / 32) bases[lane] = lane == 0 ? exclusive : exclusive + warpBefore;
  }
  __syncthreads();
  const T base = bases[w];
  const long long run = (long long)b * (BLOCK * ITEMS) + (long long)w * (32 * ITEMS);
#pragma unroll
  for (int j = 0; j < ITEMS / 4; j++) {
    T acc = base + before[j];
    uint4 o;
    acc = acc + fromBits<T>(buf[j].x); o.x = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].y); o.y = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].z); o.z = toBits<T>(acc);
    acc = acc + fromBits<T>(buf[j].w); o.w = toBits<T>(acc);
    st4<SH>(&y[run + j * 128 + lane * 4], o);
  }
}

// AHEAD 1: thread 0 draws the ticket after next while the block works on the current tile (the
// atomic's round trip off the path), so a block holds up to three tiles' tickets.
template <typename T, int BLOCK, int ITEMS, int MINB, int LH, int SH, int AHEAD>
__global__ void __launch_bounds__(BLOCK, MINB) scanPipe2(int n, const T* __restrict__ x, T* __restrict__ y, u64* words, u32* ticket, u32 epoch, u32 ticketBase, int tiles) {
  __shared__ T totals[32];
  __shared__ T bases[32];
  __shared__ int tileId[2];
  const int t = threadIdx.x;
  uint4 a[ITEMS / 4], c[ITEMS / 4];
  T beforeA[ITEMS / 4], beforeC[ITEMS / 4];
  T aggregate = T(0), warpBefore = T(0);
  u32 pending = 0;
  if (t == 0) tileId[0] = (int)(atomicAdd(ticket, 1u) - ticketBase);
  __syncthreads();
  int cur = tileId[0];
  if (cur >= tiles) return;
  if (AHEAD && t == 0) pending = atomicAdd(ticket, 1u) - ticketBase;
  pipeLoad<T, BLOCK, ITEMS, LH>(a, cur, x);
  pipe2Reduce<T, BLOCK, ITEMS>(a, beforeA, cur, words, epoch, totals, aggregate, warpBefore);
  for (;;) {
    if (t == 0) {
      tileId[1] = AHEAD ? (int)pending : (int)(atomicAdd(ticket, 1u) - ticketBase);
    }
    __syncthreads();
    int next = tileId[1];
    if (AHEAD && t == 0 && next < tiles) pending = atomicAdd(ticket, 1u) - ticketBase;
    if (next < tiles) pipeLoad<T, BLOCK, ITEMS, LH>(c, next, x);
    pipe2Finish<T, BLOCK, ITEMS, SH>(a, beforeA, cur, y, words, epoch, bases, aggregate, warpBefore);
    if (next >= tiles) return;
    cur = next;
    pipe2Reduce<T, BLOCK, ITEMS>(c, beforeC, cur, words, epoch, totals, aggregate, warpBefore);
    if (t == 0) {
      tileId[0] = AHEAD ? (int)pending : (int)(atomicAdd(ticket, 1u) - ticketBase);
    }
    __syncthreads();
    next = tileId[0];
    if (AHEAD && t == 0 && next < tiles) pending = atomicAdd(ticket, 1u) - ticketBase;
    if (next < tiles) pipeLoad<T, BLOCK, ITEMS, LH>(a, next, x);
    pipe2Finish<T, BLOCK, ITEMS, SH>(c, beforeC, cur, y, words, epoch, bases, aggregate, warpBefore);
    if (next >= tiles) return;
    cur = next;
    pipe2Reduce<T, BLOCK, ITEMS>(a, beforeA, cur, words, epoch, totals, aggregate, warpBefore);
  }
}
