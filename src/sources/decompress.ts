import { createGunzip, type ZlibOptions } from 'node:zlib';
import { Readable, type TransformOptions } from 'node:stream';
import type { Limits } from '../core/limits.js';

/** Output size past which the inflation-ratio guard applies (small files may inflate a lot). */
export const RATIO_GRACE_BYTES = 64 * 1024 * 1024;
/**
 * Decoder output chunk. zlib inflates one chunk per trip to libuv's pool and needs this thread
 * between two: a larger chunk keeps it busier while this thread parses (1 MB: the real-content
 * case 6 % faster than 256 KB, which was about 40 % faster than the 16 KB default; 4 MB gained
 * nothing more and cost 30 MB of RSS).
 */
const OUTPUT_CHUNK = 1024 * 1024;
/**
 * Output chunks a decoder may produce ahead of the reader (8 MB). zlib decodes on libuv's thread
 * pool but queues the next chunk only when its output buffer has room: with room for a few MB it
 * keeps decoding while the main thread scans, so both cores work.
 */
const INFLATE_AHEAD_CHUNKS = 8;

export type Compression = 'gzip' | 'xz';

export class InflationError extends Error {}

/**
 * Decompresses a body, streamed. Throws (from the iteration) when the output exceeds
 * `maxOutputBytes` or inflates past `limits.maxInflationRatio`: a bomb stops early.
 */
export async function* decompress(
  body: AsyncIterable<Buffer>,
  compression: Compression,
  limits: Limits,
  maxOutputBytes: number = limits.maxTotalBytes,
): AsyncGenerator<Buffer> {
  let compressedBytes = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      compressedBytes += chunk.length;
      yield chunk;
    }
  }
  const output = compression === 'gzip' ? gunzip(counted()) : unxz(counted());
  let outputBytes = 0;
  for await (const chunk of named(output, compression)) {
    outputBytes += chunk.length;
    if (outputBytes > maxOutputBytes) {
      throw new InflationError(`${compression} stream inflates past ${maxOutputBytes} bytes (limit)`);
    }
    if (outputBytes > RATIO_GRACE_BYTES && outputBytes > limits.maxInflationRatio * Math.max(compressedBytes, 1)) {
      throw new InflationError(
        `${compression} stream inflates more than ${limits.maxInflationRatio}:1 (compression bomb guard)`,
      );
    }
    yield chunk;
  }
}

/** A decoder's output whose errors say which decoder failed (zlib's `unexpected end of file` → `gzip: unexpected end of file`). */
async function* named(output: AsyncIterable<Buffer>, compression: Compression): AsyncGenerator<Buffer> {
  try {
    yield* output;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.startsWith(`${compression}: `)) throw err;
    throw new Error(`${compression}: ${message}`, { cause: err });
  }
}

/** xz, its decoders loaded when first needed: most inputs are gzip. */
async function* unxz(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const { systemXzAvailable, unxzWithProcess, unxzWithWasm } = await import('./xz.js');
  yield* systemXzAvailable() ? unxzWithProcess(input) : unxzWithWasm(input);
}

function gunzip(input: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  // zlib hands its options to the Transform it is, so stream options apply too.
  // In object mode each read takes one chunk: in byte mode a reader behind the decoder gets every
  // buffered chunk copied into one (Node's `fromList`: half a second of an aws x4 read on worker threads).
  const options: ZlibOptions & TransformOptions = { chunkSize: OUTPUT_CHUNK, readableObjectMode: true, readableHighWaterMark: INFLATE_AHEAD_CHUNKS };
  const gz = createGunzip(options);
  // One piece of input held ahead, not Readable.from's sixteen: zlib has the piece it inflates, and
  // sixteen of the file's 512 KB pieces (8 MB, 64 MB inflated) would wait in memory for nothing.
  const source = Readable.from(input, { highWaterMark: 1 });
  source.on('error', (err) => gz.destroy(err));
  // A reader that stops early destroys the decoder: the input it was fed from ends with it.
  gz.on('close', () => source.destroy());
  source.pipe(gz);
  return gz;
}
