// gk/std/scan on the simulator: warp, block and device-wide inclusive and exclusive scans (scan and scanPacked) against plain JS, under fast-check.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ARRAYS, OPS, refCombine, refIdentity, stdModule, type OpName } from "./helpers.js";

const SOURCE = `import { scan, scanPacked, warpInclusiveScan, warpExclusiveScan, blockInclusiveScan, blockExclusiveScan } from "gk/std/scan";
device_kernel warps<T: i32 | u32 | f32, OP: i32, EXCL: bool>(x: readonly global<T>, out: global<T>) {
  out[globalId.x] = EXCL ? warpExclusiveScan<T, OP>(x[globalId.x]) : warpInclusiveScan<T, OP>(x[globalId.x]);
}
device_kernel blocks<T: i32 | u32 | f32, OP: i32, EXCL: bool>(x: readonly global<T>, out: global<T>) {
  shared scratch: T[32];
  const v = x[globalId.x];
  if (EXCL) {
    out[globalId.x] = blockExclusiveScan<T, OP>(v, scratch);
  } else {
    out[globalId.x] = blockInclusiveScan<T, OP>(v, scratch);
  }
}
`;

type Elem = "i32" | "u32" | "f32";
const ELEMS: Elem[] = ["i32", "u32", "f32"];
const opsOf = (elem: Elem): OpName[] => (elem === "f32" ? ["SUM", "MIN", "MAX"] : ["SUM", "MIN", "MAX", "AND", "OR", "XOR"]);

/** The scan of `data` in segments of `seg` elements (a warp, a block, or the whole array). */
function refScan(data: ArrayLike<number>, elem: Elem, op: OpName, exclusive: boolean, seg = data.length): number[] {
  const f = refCombine(elem, op);
  const out: number[] = [];
  let acc = refIdentity(elem, op);
  for (let i = 0; i < data.length; i++) {
    if (i % seg === 0) acc = refIdentity(elem, op);
    const next = f(acc, data[i]!);
    out.push(exclusive ? acc : next);
    acc = next;
  }
  return out;
}

describe("gk/std/scan", () => {
  it("warp and block scans, inclusive and exclusive, for every operator", async () => {
    const mod = await stdModule(SOURCE);
    for (const elem of ELEMS) {
      for (const op of opsOf(elem)) {
        const data = ARRAYS[elem].from({ length: 128 }, (_, i) => ((i * 7919 + 13) % 1000) - (elem === "u32" ? 0 : 500));
        for (const EXCL of [false, true]) {
          const w = await mod.warps!.with({ T: elem, OP: OPS[op], EXCL })({ grid: 2, block: 64 }, { x: data, out: new ARRAYS[elem](128) });
          expect([...(w.out as Int32Array)], `${elem} ${op} ${EXCL} warp`).toEqual(refScan(data, elem, op, EXCL, 32));
          const b = await mod.blocks!.with({ T: elem, OP: OPS[op], EXCL })({ grid: 2, block: 64 }, { x: data, out: new ARRAYS[elem](128) });
          expect([...(b.out as Int32Array)], `${elem} ${op} ${EXCL} block`).toEqual(refScan(data, elem, op, EXCL, 64));
        }
      }
    }
  });

  it("scan<T, OP, BLOCK, ITEMS, EXCLUSIVE> scans any length in one launch (decoupled look-back)", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ELEMS).chain((elem) =>
          fc.record({
            elem: fc.constant(elem),
            op: fc.constantFrom(...opsOf(elem)),
            data: fc.array(elem === "u32" ? fc.integer({ min: 0, max: 1 << 16 }) : fc.integer({ min: -(1 << 16), max: 1 << 16 }), { maxLength: 3000 }),
            block: fc.constantFrom(32, 64),
            items: fc.constantFrom(4, 8, 12),
            exclusive: fc.boolean(),
            ticketBase: fc.constantFrom(0, 0xfffffffe),
          }),
        ),
        async ({ elem, op, data, block, items, exclusive, ticketBase }) => {
          const x = ARRAYS[elem].from(data);
          const tiles = Math.max(1, Math.ceil(x.length / (block * items)));
          const A = ARRAYS[elem];
          const r = await mod.scan!.with({ T: elem, OP: OPS[op], BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive })(
            { grid: tiles, block },
            { n: x.length, x, y: new A(x.length), status: new Uint32Array(tiles), aggregates: new A(tiles), prefixes: new A(tiles), ticket: Uint32Array.of(ticketBase), epoch: 1, ticketBase },
          );
          expect([...(r.y as Int32Array)]).toEqual(refScan(x, elem, op, exclusive));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("scan's look-back: over published aggregates, window by window, stopping at the nearest published prefix", async () => {
    // The simulator runs blocks in order, so a tile always finds the one before it done. Here
    // tiles 0 .. done-1 are given as published by blocks that came before (their status words
    // of this epoch: some aggregates, some inclusive prefixes), and the launch scans the rest.
    const mod = await stdModule(SOURCE);
    const TILE = 128;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.boolean(), fc.constant(false)), { minLength: 1, maxLength: 80, size: "max" }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("SUM", "MAX" as const),
        async (published, more, op) => {
          const done = published.length;
          const tiles = done + more;
          const x = Int32Array.from({ length: tiles * TILE }, (_, i) => ((i * 7919) % 201) - 100);
          const ref = refScan(x, "i32", op, false);
          const f = refCombine("i32", op);
          const epoch = 5;
          const status = new Uint32Array(tiles), aggregates = new Int32Array(tiles), prefixes = new Int32Array(tiles);
          for (let t = 0; t < done; t++) {
            aggregates[t] = Array.from(x.subarray(t * TILE, (t + 1) * TILE)).reduce(f);
            // Tile 0 always has its prefix; a tile marked true has its inclusive prefix; the rest only their aggregates.
            const prefix = t === 0 || published[t]!;
            if (prefix) prefixes[t] = ref[(t + 1) * TILE - 1]!;
            status[t] = (epoch << 2) | (prefix ? 2 : 1);
          }
          const r = await mod.scan!.with({ T: "i32", OP: OPS[op], BLOCK: 32, ITEMS: 4, EXCLUSIVE: false })(
            { grid: more, block: 32 },
            { n: x.length, x, y: new Int32Array(x.length), status, aggregates, prefixes, ticket: Uint32Array.of(100 + done), epoch, ticketBase: 100 },
          );
          expect([...(r.y as Int32Array).subarray(done * TILE)]).toEqual(ref.slice(done * TILE));
        },
      ),
      { numRuns: 30 },
    );
  });
  it("scanPacked<T, OP, BLOCK, ITEMS, EXCLUSIVE, MINB, LOOK, STRIDE> scans any length in one launch, as scan does", async () => {
    const mod = await stdModule(SOURCE);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ELEMS).chain((elem) =>
          fc.record({
            elem: fc.constant(elem),
            op: fc.constantFrom(...opsOf(elem)),
            data: fc.array(elem === "u32" ? fc.integer({ min: 0, max: 1 << 16 }) : fc.integer({ min: -(1 << 16), max: 1 << 16 }), { maxLength: 3000 }),
            block: fc.constantFrom(32, 64),
            items: fc.constantFrom(4, 8, 12),
            exclusive: fc.boolean(),
            look: fc.constantFrom(1, 2, 4),
            stride: fc.constantFrom(1, 3, 16),
            ticketBase: fc.constantFrom(0, 0xfffffffe),
          }),
        ),
        async ({ elem, op, data, block, items, exclusive, look, stride, ticketBase }) => {
          const x = ARRAYS[elem].from(data);
          const tiles = Math.max(1, Math.ceil(x.length / (block * items)));
          const r = await mod.scanPacked!.with({ T: elem, OP: OPS[op], BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive, MINB: 1, LOOK: look, STRIDE: stride })(
            { grid: tiles, block },
            { n: x.length, x, y: new ARRAYS[elem](x.length), words: new BigUint64Array(tiles * stride), ticket: Uint32Array.of(ticketBase), epoch: 1, ticketBase },
          );
          expect([...(r.y as Int32Array)]).toEqual(refScan(x, elem, op, exclusive));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("scanPacked's look-back: over published words, LOOK windows at a time, stopping at the nearest inclusive prefix; other epochs' words are empty", async () => {
    // As scan's test above: tiles 0 .. done-1 are given as published (their words of this epoch:
    // aggregates, some inclusive prefixes), and the launch scans the rest. The words of the tiles
    // it scans are left from an earlier epoch (a full prefix word of epoch 4), which must read as
    // empty, and so are the words between two tiles' (STRIDE 2: a prefix of this epoch there must
    // not be read).
    const mod = await stdModule(SOURCE);
    const TILE = 128;
    await fc.assert(
      fc.asyncProperty(
        // Few prefixes (about one tile in 30), so that the look-back often crosses whole windows of aggregates.
        fc.array(fc.integer({ min: 0, max: 29 }).map((v) => v === 0), { minLength: 1, maxLength: 150, size: "max" }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("SUM", "MAX" as const),
        fc.constantFrom(1, 2, 4),
        fc.constantFrom(1, 2),
        async (published, more, op, look, stride) => {
          const done = published.length;
          const tiles = done + more;
          const x = Int32Array.from({ length: tiles * TILE }, (_, i) => ((i * 7919) % 201) - 100);
          const ref = refScan(x, "i32", op, false);
          const f = refCombine("i32", op);
          const epoch = 5n;
          const word = (e: bigint, status: number, v: number) => (e << 34n) | (BigInt(status) << 32n) | BigInt(v >>> 0);
          const words = new BigUint64Array(tiles * stride).fill(word(epoch - 1n, 2, 12345));
          for (let t = 0; t < done; t++) {
            // Tile 0 always has its prefix; a tile marked true has its inclusive prefix; the rest only their aggregates.
            const prefix = t === 0 || published[t]!;
            words[t * stride] = prefix ? word(epoch, 2, ref[(t + 1) * TILE - 1]!) : word(epoch, 1, Array.from(x.subarray(t * TILE, (t + 1) * TILE)).reduce(f));
            if (stride > 1) words[t * stride + 1] = word(epoch, 2, 777);
          }
          const r = await mod.scanPacked!.with({ T: "i32", OP: OPS[op], BLOCK: 32, ITEMS: 4, EXCLUSIVE: false, MINB: 1, LOOK: look, STRIDE: stride })(
            { grid: more, block: 32 },
            { n: x.length, x, y: new Int32Array(x.length), words, ticket: Uint32Array.of(100 + done), epoch: Number(epoch), ticketBase: 100 },
          );
          expect([...(r.y as Int32Array).subarray(done * TILE)]).toEqual(ref.slice(done * TILE));
        },
      ),
      { numRuns: 30 },
    );
  });
});
