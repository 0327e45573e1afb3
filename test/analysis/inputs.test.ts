import { copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/analysis/inputs.js';
import { MG_MINI, tempDir } from '../helpers/archives.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;

describe('expandInputs', () => {
  it('a folder holding several archives (by content, whatever the name) and no tree: one input per archive, in name order', async () => {
    const dir = tempDir();
    copyFileSync(join(SAMPLES, 'healthy.tar.gz'), join(dir, 'b.tar.gz'));
    copyFileSync(join(SAMPLES, 'old-boot-image.tar.gz'), join(dir, 'a-case.bin'));
    writeFileSync(join(dir, 'c.tar.bz2'), Buffer.from('BZh91AY&SY'));
    writeFileSync(join(dir, 'notes.txt'), 'not an archive\n');
    writeFileSync(join(dir, 'fake.tar.gz'), 'plain text named like an archive\n');
    mkdirSync(join(dir, 'older'));
    copyFileSync(join(SAMPLES, 'healthy.tar.gz'), join(dir, 'older', 'x.tar.gz'));
    symlinkSync(join(SAMPLES, 'healthy.tar.gz'), join(dir, 'link.tar.gz'));
    const expansion = await expandInputs([dir]);
    // bzip2 counts: mgsift refuses it, and the batch says so in its row rather than dropping it.
    expect(expansion.inputs).toEqual([join(dir, 'a-case.bin'), join(dir, 'b.tar.gz'), join(dir, 'c.tar.bz2')]);
    expect(expansion.notes).toEqual([`${dir}: a folder of 3 archives, each analysed on its own; left out (not archives): fake.tar.gz, link.tar.gz, notes.txt, older/`]);
  });

  it('a case folder with one archive stays one input (opened in place, as before)', async () => {
    const dir = tempDir();
    copyFileSync(join(SAMPLES, 'healthy.tar.gz'), join(dir, 'must-gather.tar.gz'));
    writeFileSync(join(dir, 'case-notes.txt'), 'customer says upgrade hangs\n');
    expect(await expandInputs([dir])).toEqual({ inputs: [dir], notes: [] });
  });

  it('a must-gather tree stays one input even with archives at its top', async () => {
    const dir = join(tempDir(), 'must-gather.local.1');
    cpSync(join(MG_MINI, 'must-gather-aws'), dir, { recursive: true });
    copyFileSync(join(SAMPLES, 'healthy.tar.gz'), join(dir, 'one.tar.gz'));
    copyFileSync(join(SAMPLES, 'old-boot-image.tar.gz'), join(dir, 'two.tar.gz'));
    expect(await expandInputs([dir])).toEqual({ inputs: [dir], notes: [] });
  });

  it('files and missing paths stay as given, in order', async () => {
    const missing = join(tempDir(), 'gone.tar.gz');
    const file = join(SAMPLES, 'healthy.tar.gz');
    expect(await expandInputs([file, missing, file])).toEqual({ inputs: [file, missing, file], notes: [] });
  });
});
