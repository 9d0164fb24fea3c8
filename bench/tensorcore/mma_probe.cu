// Probe of the tensor cores' rounding: runs mma.sync on generated inputs and dumps
// inputs and outputs, so that candidate models can be checked offline, bit for bit.
// Layouts: PTX ISA "Matrix Fragments for mma.m16n8k16" (f16/bf16) and m16n8k8 (tf32).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// A: 16x16 row-major halves (bits), B: 16x8 stored as B[k][n] row-major halves, C/D 16x8 f32 row-major.
// kind 0: f16 in, f32 acc; 1: bf16 in, f32 acc; 2: f16 in, f16 acc (C/D as f16 bits in the low half of u32)
__global__ void mma16816(int kind, const uint16_t* A, const uint16_t* B, const uint32_t* C, uint32_t* D, int tiles) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= tiles) return;
  const uint16_t* a = A + warp * 256;
  const uint16_t* b = B + warp * 128;
  const uint32_t* c = C + warp * 128;
  uint32_t* d = D + warp * 128;
  int g = lane >> 2, t = lane & 3;
  uint32_t ar[4], br[2];
  // a0,a1: (g, 2t..2t+1); a2,a3: (g+8, 2t..); a4,a5: (g, 2t+8..); a6,a7: (g+8, 2t+8..)
  int arow[4] = {g, g + 8, g, g + 8};
  int acol[4] = {2 * t, 2 * t, 2 * t + 8, 2 * t + 8};
  for (int i = 0; i < 4; i++) ar[i] = (uint32_t)a[arow[i] * 16 + acol[i]] | ((uint32_t)a[arow[i] * 16 + acol[i] + 1] << 16);
  // b0,b1: (k=2t..2t+1, n=g); b2,b3: (k=2t+8.., n=g)
  int bk[2] = {2 * t, 2 * t + 8};
  for (int i = 0; i < 2; i++) br[i] = (uint32_t)b[bk[i] * 8 + g] | ((uint32_t)b[(bk[i] + 1) * 8 + g] << 16);
  // c0,c1: (g, 2t..2t+1); c2,c3: (g+8, 2t..)
  int crow[4] = {g, g, g + 8, g + 8};
  int ccol[4] = {2 * t, 2 * t + 1, 2 * t, 2 * t + 1};
  if (kind == 2) {
    uint32_t cr[2], dr[2];
    cr[0] = (c[crow[0] * 8 + ccol[0]] & 0xffff) | (c[crow[1] * 8 + ccol[1]] << 16);
    cr[1] = (c[crow[2] * 8 + ccol[2]] & 0xffff) | (c[crow[3] * 8 + ccol[3]] << 16);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(dr[0]), "=r"(dr[1]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "r"(cr[0]), "r"(cr[1]));
    d[crow[0] * 8 + ccol[0]] = dr[0] & 0xffff; d[crow[1] * 8 + ccol[1]] = dr[0] >> 16;
    d[crow[2] * 8 + ccol[2]] = dr[1] & 0xffff; d[crow[3] * 8 + ccol[3]] = dr[1] >> 16;
    return;
  }
  float cf[4], df[4];
  for (int i = 0; i < 4; i++) cf[i] = __uint_as_float(c[crow[i] * 8 + ccol[i]]);
  if (kind == 0)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
  for (int i = 0; i < 4; i++) d[crow[i] * 8 + ccol[i]] = __float_as_uint(df[i]);
}

// tf32 m16n8k8: A 16x8 (row) f32 bits, B 8x8 stored B[k][n], C/D 16x8 f32.
__global__ void mma1688tf32(const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D, int tiles) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= tiles) return;
  const uint32_t* a = A + warp * 128;
  const uint32_t* b = B + warp * 64;
  const uint32_t* c = C + warp * 128;
  uint32_t* d = D + warp * 128;
  int g = lane >> 2, t = lane & 3;
  // a0: (g, t), a1: (g+8, t), a2: (g, t+4), a3: (g+8, t+4); b0: (k=t, n=g), b1: (k=t+4, n=g)
  uint32_t ar[4] = {a[g * 8 + t], a[(g + 8) * 8 + t], a[g * 8 + t + 4], a[(g + 8) * 8 + t + 4]};
  uint32_t br[2] = {b[t * 8 + g], b[(t + 4) * 8 + g]};
  int crow[4] = {g, g, g + 8, g + 8};
  int ccol[4] = {2 * t, 2 * t + 1, 2 * t, 2 * t + 1};
  float cf[4], df[4];
  for (int i = 0; i < 4; i++) cf[i] = __uint_as_float(c[crow[i] * 8 + ccol[i]]);
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
               : "=f"(df[0]), "=f"(df[1]), "=f"(df[2]), "=f"(df[3]) : "r"(ar[0]), "r"(ar[1]), "r"(ar[2]), "r"(ar[3]), "r"(br[0]), "r"(br[1]), "f"(cf[0]), "f"(cf[1]), "f"(cf[2]), "f"(cf[3]));
  for (int i = 0; i < 4; i++) d[crow[i] * 8 + ccol[i]] = __float_as_uint(df[i]);
}

// xorshift64*: deterministic inputs.
static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t rnd() { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 2685821657736338717ull; }
static int urange(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

// A half (f16) with a random sign, an exponent in [elo, ehi] (unbiased, normal range unless set 'sub'), random mantissa.
static uint16_t f16bits(int elo, int ehi, bool sub) {
  uint16_t sign = (rnd() & 1) << 15;
  if (sub && (rnd() % 4 == 0)) return sign | (uint16_t)(rnd() % 1024);  // subnormal or zero
  int e = urange(elo, ehi) + 15;
  if (e < 1) e = 1; if (e > 30) e = 30;
  return sign | (uint16_t)(e << 10) | (uint16_t)(rnd() % 1024);
}
static uint16_t bf16bits(int elo, int ehi, bool sub) {
  uint16_t sign = (rnd() & 1) << 15;
  if (sub && (rnd() % 4 == 0)) return sign | (uint16_t)(rnd() % 128);
  int e = urange(elo, ehi) + 127;
  return sign | (uint16_t)(e << 7) | (uint16_t)(rnd() % 128);
}
static uint32_t f32bits(int elo, int ehi, bool sub) {
  uint32_t sign = (uint32_t)(rnd() & 1) << 31;
  if (sub && (rnd() % 4 == 0)) return sign | (uint32_t)(rnd() % (1u << 23));
  int e = urange(elo, ehi) + 127;
  if (e < 1) e = 1; if (e > 254) e = 254;
  return sign | ((uint32_t)e << 23) | (uint32_t)(rnd() % (1u << 23));
}

struct Set { const char* name; int aelo, aehi, celo, cehi; bool sub; bool czero; };
static const Set SETS[] = {
  {"mixed", -6, 6, -14, 14, false, false},
  {"narrow", -2, 2, -3, 3, false, false},
  {"wide", -14, 15, -30, 30, false, false},
  {"czero", -6, 6, 0, 0, false, true},
  {"sub", -14, -8, -40, -20, true, false},
  {"bigc", -4, 4, 8, 24, false, false},
};
static const int NSETS = sizeof(SETS) / sizeof(SETS[0]);

int main(int argc, char** argv) {
  const char* out = argc > 1 ? argv[1] : ".";
  const int T = 1024;  // tiles per set
  for (int kind = 0; kind < 4; kind++) {
    const char* names[] = {"f16_f32", "bf16_f32", "f16_f16", "tf32_f32"};
    int an = kind == 3 ? 128 : 256, bn = kind == 3 ? 64 : 128;
    size_t tiles = (size_t)T * NSETS;
    std::vector<uint32_t> A32(tiles * an), B32(tiles * bn), C(tiles * 128), D(tiles * 128);
    std::vector<uint16_t> A16(tiles * an), B16(tiles * bn);
    for (int si = 0; si < NSETS; si++) {
      const Set& st = SETS[si];
      for (size_t tt = 0; tt < (size_t)T; tt++) {
        size_t tile = si * T + tt;
        // Half of the tiles: one row of A scaled far apart (big cancellation / alignment cases).
        bool skew = tt % 2 == 1;
        for (int i = 0; i < an; i++) {
          int shift = skew && (i % 16 == 0) ? 4 : 0;
          if (kind == 0 || kind == 2) A16[tile * an + i] = f16bits(st.aelo + shift, st.aehi + shift, st.sub);
          else if (kind == 1) A16[tile * an + i] = bf16bits(st.aelo + shift, st.aehi + shift, st.sub);
          else A32[tile * an + i] = f32bits(st.aelo, st.aehi, st.sub) & 0xffffe000u;
        }
        for (int i = 0; i < bn; i++) {
          if (kind == 0 || kind == 2) B16[tile * bn + i] = f16bits(st.aelo, st.aehi, st.sub);
          else if (kind == 1) B16[tile * bn + i] = bf16bits(st.aelo, st.aehi, st.sub);
          else B32[tile * bn + i] = f32bits(st.aelo, st.aehi, st.sub) & 0xffffe000u;
        }
        for (int i = 0; i < 128; i++) {
          if (st.czero) C[tile * 128 + i] = (rnd() & 1) ? 0x80000000u : 0u;
          else if (kind == 2) C[tile * 128 + i] = f16bits(std::max(st.celo, -14), std::min(st.cehi, 15), st.sub);
          else C[tile * 128 + i] = f32bits(st.celo, st.cehi, st.sub);
        }
      }
    }
    void *dA, *dB, *dC, *dD;
    size_t asz = kind == 3 ? A32.size() * 4 : A16.size() * 2, bsz = kind == 3 ? B32.size() * 4 : B16.size() * 2;
    CK(cudaMalloc(&dA, asz)); CK(cudaMalloc(&dB, bsz)); CK(cudaMalloc(&dC, C.size() * 4)); CK(cudaMalloc(&dD, D.size() * 4));
    CK(cudaMemcpy(dA, kind == 3 ? (void*)A32.data() : (void*)A16.data(), asz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, kind == 3 ? (void*)B32.data() : (void*)B16.data(), bsz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dD, 0xff, D.size() * 4));
    int threads = 128, blocks = (int)((tiles * 32 + threads - 1) / threads);
    if (kind == 3) mma1688tf32<<<blocks, threads>>>((uint32_t*)dA, (uint32_t*)dB, (uint32_t*)dC, (uint32_t*)dD, (int)tiles);
    else mma16816<<<blocks, threads>>>(kind, (uint16_t*)dA, (uint16_t*)dB, (uint32_t*)dC, (uint32_t*)dD, (int)tiles);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(D.data(), dD, D.size() * 4, cudaMemcpyDeviceToHost));
    char path[512]; snprintf(path, sizeof path, "%s/mma_%s.bin", out, names[kind]);
    FILE* f = fopen(path, "wb");
    uint32_t hdr[4] = {(uint32_t)kind, (uint32_t)tiles, (uint32_t)NSETS, (uint32_t)T};
    fwrite(hdr, 4, 4, f);
    if (kind == 3) { fwrite(A32.data(), 4, A32.size(), f); fwrite(B32.data(), 4, B32.size(), f); }
    else { fwrite(A16.data(), 2, A16.size(), f); fwrite(B16.data(), 2, B16.size(), f); }
    fwrite(C.data(), 4, C.size(), f); fwrite(D.data(), 4, D.size(), f);
    fclose(f);
    printf("wrote %s (%zu tiles)\n", path, tiles);
    cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
  }
  return 0;
}
