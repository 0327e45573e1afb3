import type { Limits } from '../core/limits.js';
import type { Problems } from '../core/problems.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

/** The container an input (or a nested archive) was found to be, by its content. */
export type ContainerKind = 'directory' | 'tar' | 'tar.gz' | 'tar.xz' | 'zip' | 'file' | 'file.gz' | 'file.xz';

/**
 * One entry of an input. Entries arrive in archive order and a body can be read once, only
 * before the next entry is requested (tar is sequential); a body left unread is skipped.
 */
export interface Entry {
  /**
   * POSIX path inside the input exactly as stored (a decompressed `x.log.gz` keeps its `.gz`:
   * reports name the file a reader can open). Never resolved against the file system: `../x`
   * stays a name.
   */
  readonly path: string;
  readonly type: EntryType;
  /** Stored size in bytes when the container says so (for decompressed bodies: unknown). */
  readonly size: number | undefined;
  readonly linkTarget?: string | undefined;
  /** Set when the body is decompressed on the fly from `gzip` or `xz`; `path` then keeps its suffix. */
  readonly decompressed?: 'gzip' | 'xz' | undefined;
  /**
   * Why the body was not read (a limit): the entry is still named, so the stages that wanted
   * it can say they lack it instead of passing over it. Its body is empty.
   */
  readonly skipped?: string | undefined;
  /**
   * Once the body was read: why it ended before the entry did (a limit cut it), else undefined.
   * What the rest would have held is unknown.
   */
  readonly cutShort?: (() => string | undefined) | undefined;
  body(): AsyncIterable<Buffer>;
  /**
   * The body's first `n` bytes (all of a shorter body) when they are at hand, without reading
   * them (a tar entry in the chunk being read); undefined otherwise. Only before the body is read
   * and before the next entry is asked for.
   */
  readonly peekNow?: ((n: number) => Buffer | undefined) | undefined;
}

export interface SourceOptions {
  limits: Limits;
  problems: Problems;
}

/** Everything an input yields: what it is, and its entries, streamed. */
export interface Source {
  /** The path the user gave. */
  readonly input: string;
  readonly container: ContainerKind;
  entries(): AsyncIterable<Entry>;
  /** Bytes of the input file read so far and its size (archives and single files only). */
  readonly position?: (() => InputPosition) | undefined;
}

export interface InputPosition {
  read: number;
  total: number;
  /** Bytes of the container's stream read (a tar's, after decompression), when it is a stream. */
  stream?: number | undefined;
}
