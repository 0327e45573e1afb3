// The part of lzma-native's API that mgsift uses (the package ships no types).
declare module 'lzma-native' {
  import type { Transform } from 'node:stream';
  export function createDecompressor(options?: { memlimit?: number; threads?: number }): Transform;
  const lzma: { createDecompressor: typeof createDecompressor };
  export default lzma;
}
