import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { readHead } from '../sources/open.js';
import { detectMagic } from '../sources/magic.js';
import { directoryEntries } from '../sources/directory.js';
import { LayoutDetector } from '../layout/index.js';

/** The analyses a command line asks for, in order, and what was left out of an expanded folder. */
export interface Expansion {
  inputs: string[];
  notes: string[];
}

/**
 * One analysis per input, except for a folder of archives. A file is one analysis. A folder is
 * one analysis when it is an archive tree (must-gather, inspect, gather-extra) or holds at most
 * one archive at its top level (a case folder: its archive is opened in place). A folder whose
 * top level holds several archives and that is no archive tree (a support queue's download
 * folder, a CI fleet's artifacts) becomes one analysis per top-level archive, in name order.
 * An archive is told by its first bytes (tar, gzip, xz, zip, and the bzip2/zstd that mgsift
 * refuses, so they are reported rather than silently left out); other files, sub-folders and
 * links at that level are left out, and a note says so.
 */
export async function expandInputs(inputs: readonly string[]): Promise<Expansion> {
  const expansion: Expansion = { inputs: [], notes: [] };
  for (const input of inputs) {
    const top = await topLevel(input);
    if (top === undefined || top.archives.length < 2 || (await isArchiveTree(input))) {
      expansion.inputs.push(input);
      continue;
    }
    expansion.inputs.push(...top.archives.map((name) => join(input, name)));
    const left = top.others.length > 0 ? `; left out (not archives): ${top.others.join(', ')}` : '';
    expansion.notes.push(`${input}: a folder of ${top.archives.length} archives, each analysed on its own${left}`);
  }
  return expansion;
}

/** Names at a folder's top level, archives apart; undefined for anything but a readable folder. */
async function topLevel(input: string): Promise<{ archives: string[]; others: string[] } | undefined> {
  const archives: string[] = [];
  const others: string[] = [];
  try {
    for await (const dirent of await opendir(input)) {
      if (dirent.isFile() && detectMagic(await readHead(join(input, dirent.name))) !== 'unknown') archives.push(dirent.name);
      else others.push(dirent.isDirectory() ? `${dirent.name}/` : dirent.name);
    }
  } catch {
    // Not a folder, or unreadable: it stays one input, and its analysis says why it fails.
    return undefined;
  }
  // Default sort: code-unit order, the same on every machine.
  return { archives: archives.sort(), others: others.sort() };
}

/** Whether a folder's own paths (names only, nothing is read) form a gathered tree. */
async function isArchiveTree(dir: string): Promise<boolean> {
  const detector = new LayoutDetector();
  for await (const entry of directoryEntries(dir)) {
    if (entry.type === 'directory') detector.addDirectory(entry.path);
    else detector.add(entry.path);
  }
  const layout = detector.layout();
  return layout === 'must-gather' || layout === 'inspect' || layout === 'gather-extra';
}
