// `npm run bench`: every benchmark, each printing a table and writing bench/results/*.json.
// The launch and kernel benchmarks need a GPU and say why they are skipped otherwise.
import { benchArrays } from "./arrays.mjs";
import { benchBuild } from "./build.mjs";
import { benchFrontend } from "./frontend.mjs";
import { benchKernels } from "./kernels.mjs";
import { benchLaunch } from "./launch.mjs";
import { benchOverhead } from "./overhead.mjs";
import { benchRacecheck } from "./racecheck.mjs";
import { benchSim } from "./sim.mjs";
import { benchStartup } from "./startup.mjs";
import { benchStdlib } from "./stdlib.mjs";
import { benchVectors } from "./vectors.mjs";
import { benchHgemm } from "./hgemm.mjs";
import { benchWorkarounds } from "./workarounds.mjs";
import { benchHints } from "./hints.mjs";
import { benchAttention } from "./attention.mjs";
import { benchWgsl } from "./wgsl.mjs";

const only = process.argv[2];
if (!only || only === "startup") await benchStartup();
if (!only || only === "frontend") await benchFrontend();
if (!only || only === "build") await benchBuild(process.env.GK_BENCH_ARCH ?? "sm_90");
if (!only || only === "sim") await benchSim();
if (!only || only === "launch") await benchLaunch();
if (!only || only === "overhead") await benchOverhead();
if (!only || only === "kernels") await benchKernels();
if (!only || only === "vectors") await benchVectors();
if (!only || only === "stdlib") await benchStdlib();
if (!only || only === "hgemm") await benchHgemm();
if (!only || only === "arrays") await benchArrays();
if (!only || only === "workarounds") await benchWorkarounds();
if (!only || only === "hints") await benchHints();
if (!only || only === "attention") await benchAttention();
if (!only || only === "wgsl") await benchWgsl();
// racecheck's comparison runs only when asked for (it runs every case under compute-sanitizer).
if (only === "racecheck") await benchRacecheck();
