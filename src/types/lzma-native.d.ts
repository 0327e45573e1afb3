// The part of lzma-native's API that mgsift uses (the package ships no types).
declare module 'lzma-native' {
  import type { Transform, TransformOptions } from 'node:stream';
  /** `bufsize`: liblzma's output chunk; stream options reach the Transform it is. */
  export function createDecompressor(options?: { memlimit?: number; threads?: number; bufsize?: number } & TransformOptions): Transform;
  const lzma: { createDecompressor: typeof createDecompressor };
  export default lzma;
}
