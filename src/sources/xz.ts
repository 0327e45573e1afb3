/**
 * xz decoders: the system's `xz` in a process of its own, else xz-embedded in WebAssembly.
 * Loaded by `decompress` at the first xz stream.
 */
import { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { spawn, spawnSync } from 'node:child_process';
import xzWasm from 'xz-decompress';

let systemXz: boolean | undefined;

/**
 * Whether the system's `xz` runs. It decodes in its own process, as ripgrep's `--search-zip`
 * uses it, about 1.5 times the speed of the WebAssembly decoder (0.42 s against 0.65 s for a
 * 93 MB tar here); without it, the WebAssembly decoder does the work in this thread.
 */
export function systemXzAvailable(): boolean {
  systemXz ??= spawnSync('xz', ['--version'], { stdio: 'ignore' }).status === 0;
  return systemXz;
}

/** xz through the system's `xz -dc`; a stopped reader (a bomb, an early end) kills it. */
export async function* unxzWithProcess(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const child = spawn('xz', ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 2000) stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // xz stops reading at a broken stream: what it did not read is not an error of ours.
  child.stdin.on('error', () => undefined);
  const feeding = pipeline(Readable.from(input), child.stdin).then(
    () => undefined,
    (err: unknown) => err,
  );
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) yield chunk;
    const code = await exited;
    const fed = await feeding;
    if (code !== 0) throw new Error(xzFailure(stderr, code));
    if (fed instanceof Error && (fed as NodeJS.ErrnoException).code !== 'EPIPE') throw fed;
  } finally {
    child.kill();
  }
}

/** `xz: (stdin): Unexpected end of input` → `Unexpected end of input`. */
function xzFailure(stderr: string, code: number | null): string {
  const line = stderr.split('\n').find((text) => text.trim() !== '');
  return line ? `xz: ${line.replace(/^xz: \(stdin\): /, '').trim()}` : `xz exited with code ${String(code)}`;
}

const { XzReadableStream } = xzWasm;
/** xz-embedded's error codes (xz.h), as `get_next_output failed with error code N` names them. */
const XZ_ERRORS: Record<string, string> = {
  '2': 'unsupported integrity check',
  '3': 'out of memory',
  '4': 'dictionary larger than the memory limit',
  '5': 'not an xz stream',
  '6': 'unsupported xz options',
  '7': 'corrupt data',
  '8': 'unexpected end of input',
};
/** Streams the WebAssembly decoder is decoding in this thread (it decodes one at a time). */
let wasmStreams = 0;

/**
 * xz through xz-embedded compiled to WebAssembly (the xz-decompress package: no native code, so
 * it works in the single-file build too). It decodes one chunk per read, so a stopped reader
 * stops it. The package decodes one stream at a time per thread and makes a second one wait
 * for the first: an `.xz` inside an `.xz` archive would wait forever, so it fails at once.
 */
export async function* unxzWithWasm(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (wasmStreams > 0) throw new Error('an xz stream inside an xz stream needs the `xz` command (xz-utils), not found on PATH');
  wasmStreams++;
  const reader = new XzReadableStream(WebReadableStream.from(input) as ReadableStream<Uint8Array>).getReader();
  let settled = false;
  try {
    for (;;) {
      const next = await reader.read().catch((err: unknown) => {
        settled = true;
        throw new Error(wasmFailure(err));
      });
      if (next.done) break;
      yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
    settled = true;
  } finally {
    wasmStreams--;
    // Stopped early: cancelling frees the decoder's context and stops reading the input.
    if (!settled) await reader.cancel().catch(() => undefined);
  }
}

/** The decoder's error as a reason: `get_next_output failed with error code 8` → `xz: unexpected end of input`. */
function wasmFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = /error code (\d+)/.exec(message)?.[1];
  // At the input's end without a last chunk the package reads `null.byteLength`.
  if (code === undefined && err instanceof TypeError) return 'xz: unexpected end of input';
  return `xz: ${(code && XZ_ERRORS[code]) ?? message}`;
}
