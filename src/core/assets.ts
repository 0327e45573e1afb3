/**
 * The files mgsift ships beside its code: the built-in rules (with their schema and fixtures),
 * the report templates, the report schemas and package.json. The dev build reads them from the
 * package folder; the single-file build (`npm run package`) carries a copy inside its code and
 * reads that, so it needs nothing beside itself. Paths are relative to the package root,
 * with `/`.
 */
import { readFileSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { getAsset, isSea } from 'node:sea';

/** What the package build puts in the bundle (esbuild `define`); absent in the dev build. */
interface Embedded {
  /** The commit it was built from, and the day. */
  build: string;
  /** gzip of JSON `[path, base64 content][]`, in the order a directory walk gives. */
  files: string;
}
declare const MGSIFT_EMBEDDED: Embedded | undefined;
const embedded: Embedded | undefined = typeof MGSIFT_EMBEDDED === 'undefined' ? undefined : MGSIFT_EMBEDDED;

/** Whether this is the single-file build (the files are inside it, not on disk). */
export const EMBEDDED = embedded !== undefined;

/** The build: the commit and day of the single file, `source` for the dev build. */
export const BUILD = embedded?.build ?? 'source';

let version: string | undefined;
/** mgsift's version (package.json's). */
export function packageVersion(): string {
  version ??= (JSON.parse(packageText('package.json')) as { version: string }).version;
  return version;
}

/** The single-file bundle's own name, in the SEA executable: the asset that holds the bundle again. */
export const BUNDLE_ASSET = 'mgsift.cjs';

let files: Map<string, string> | undefined;
function embeddedFiles(bundle: Embedded): Map<string, string> {
  files ??= new Map(JSON.parse(gunzipSync(Buffer.from(bundle.files, 'base64')).toString('utf8')) as [string, string][]);
  return files;
}

let root: string | undefined;
function packageRoot(): string {
  root ??= fileURLToPath(new URL('../../', import.meta.url));
  return root;
}

/** The bytes of a shipped file; throws when there is none. */
export function packageBytes(path: string): Buffer {
  if (!embedded) return readFileSync(join(packageRoot(), path));
  const content = embeddedFiles(embedded).get(path);
  if (content === undefined) throw new Error(`${path}: not in this build of mgsift`);
  return Buffer.from(content, 'base64');
}

export function packageText(path: string): string {
  return packageBytes(path).toString('utf8');
}

/**
 * The shipped files under a folder (`rules`, `rules/cvo/x.fixtures/case`), depth first, names
 * sorted by their bytes in each folder, as a directory source walks them; none when it is absent.
 */
export function packageFiles(dir: string, skipDir?: (name: string) => boolean): string[] {
  if (embedded) {
    const prefix = `${dir.replace(/\/$/, '')}/`;
    return [...embeddedFiles(embedded).keys()].filter(
      (path) => path.startsWith(prefix) && !(skipDir && path.slice(prefix.length).split('/').slice(0, -1).some(skipDir)),
    );
  }
  return walkFiles(packageRoot(), dir, skipDir);
}

/** Files under `dir` (relative to `base`) in directory-walk order; what the package build embeds. */
export function walkFiles(base: string, dir: string, skipDir?: (name: string) => boolean): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(base, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  return entries.flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return skipDir?.(entry.name) ? [] : walkFiles(base, path, skipDir);
    return entry.isFile() ? [path] : [];
  });
}

/** Where a shipped file is shown to the user: its path on disk, or its path in the package. */
export function packagePath(path: string): string {
  return embedded ? path : join(packageRoot(), path);
}

/**
 * How a worker thread runs this same code in the single file: the bundle file itself, or, in
 * the executable (which has no file of JavaScript), the bundle's source from its asset. The
 * dev build has a worker script of its own: undefined.
 */
export function selfWorker(): { script: string; eval: boolean } | undefined {
  if (!embedded) return undefined;
  if (isSea()) return { script: getAsset(BUNDLE_ASSET, 'utf8'), eval: true };
  return { script: __filename, eval: false };
}
