/**
 * The browser example (examples/browser) in a real browser: built with Vite (gk/vite imports
 * its .gk file; "gk" is this repository's dist/lib, so `npm run build` comes first, as
 * `npm test` does), served from a local port, and opened in headless chromium through
 * puppeteer-core: once with WebGPU (SwiftShader's, WEBGPU.md's flags), where the kernel runs
 * on navigator.gpu, and once with WebGPU off, where it runs on gk's simulator; the test reads
 * the result and the device the page names. Skipped, with a one-line reason, where chromium
 * or the built library is missing. And the page's TypeScript type-checks.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHROMIUM = process.env.GK_CHROMIUM ?? "/usr/bin/chromium";
const EXAMPLE = resolve("examples/browser");
const why = !existsSync(CHROMIUM) ? `no chromium at ${CHROMIUM} (apt-get install chromium, or set GK_CHROMIUM)` : !existsSync("dist/lib/index.js") ? "gk's library is not built (npm run build)" : undefined;
if (why) console.warn(`test/browser/example.test.ts skipped: ${why}`);

const WEBGPU_FLAGS = ["--enable-unsafe-webgpu", "--enable-unsafe-swiftshader", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan"];
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

let server: Server | undefined;
let url = "";

/** Serves the built page from `root`. */
async function serve(root: string): Promise<void> {
  server = createServer((req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://page").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(root, rel.endsWith("/") ? `${rel}index.html` : rel);
    readFile(file).then(
      (body) => {
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      },
      () => {
        res.writeHead(404);
        res.end();
      },
    );
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** The page in headless chromium with `flags`: what #device and #result say, and the page's errors. */
async function openPage(flags: readonly string[]): Promise<{ device: string; result: { device?: string; first?: number[]; last?: number; error?: string }; errors: string[] }> {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", ...flags] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e instanceof Error ? e.message : String(e)));
    await page.goto(url);
    // The page writes #result when the kernel has run, or when it failed.
    await page.waitForFunction(() => document.getElementById("result")?.textContent, { timeout: 0, polling: 100 });
    const device = await page.$eval("#device", (e) => e.textContent ?? "");
    const text = await page.$eval("#result", (e) => e.textContent ?? "");
    return { device, result: JSON.parse(text) as { device?: string; first?: number[]; last?: number; error?: string }, errors };
  } finally {
    await browser.close();
  }
}

describe("the browser example's TypeScript", () => {
  it.skipIf(!existsSync("dist/index.d.ts"))("type-checks, strict, against gk's declarations and its .gk file's (examples/browser/tsconfig.json)", async () => {
    const { default: ts } = await import("typescript");
    const parsed = ts.getParsedCommandLineOfConfigFile(join(EXAMPLE, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
    expect(parsed.fileNames.some((f) => f.endsWith("saxpy.d.gk.ts"))).toBe(true);
    expect(ts.getPreEmitDiagnostics(ts.createProgram(parsed.fileNames, parsed.options)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))).toEqual([]);
  });
});

describe.skipIf(why !== undefined)("the browser example in headless chromium", () => {
  beforeAll(async () => {
    const { build } = await import("vite");
    await build({ root: EXAMPLE, configFile: join(EXAMPLE, "vite.config.ts"), logLevel: "error" });
    await serve(join(EXAMPLE, "dist"));
  });
  afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it("runs the .gk kernel on navigator.gpu where the browser has WebGPU", async () => {
    const page = await openPage(WEBGPU_FLAGS);
    expect(page.errors).toEqual([]);
    expect(page.device).toBe("ran on WebGPU (navigator.gpu)");
    expect(page.result).toMatchObject({ device: "webgpu", first: [1, 3, 5, 7], last: 2047 });
  });

  it("falls back to gk's simulator where it has none", async () => {
    const page = await openPage(["--disable-features=WebGPU"]);
    expect(page.errors).toEqual([]);
    expect(page.device).toBe("no WebGPU in this browser: ran on gk's CPU simulator");
    expect(page.result).toMatchObject({ device: "cpu", first: [1, 3, 5, 7], last: 2047 });
  });
});
