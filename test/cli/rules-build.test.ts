import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mgsift } from '../helpers/cli.js';
import { loadRules } from '../../src/engine/load.js';
import { BUILT_RULES_FILE, builtRulesText, readBuiltRules } from '../../src/engine/built-rules.js';
import { documentKey, type FileStamp } from '../../src/engine/rule-source.js';

// `mgsift rules build DIR` stores the documents of DIR's rule files that load whole; analysing
// with --rules DIR takes an unchanged file's document from there (engine/built-rules.ts).
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const ORIGINAL = readFileSync(new URL('../../rules/cvo/cvo-final-sync-lost.yaml', import.meta.url), 'utf8');
const COPY = ORIGINAL.replace(/^id: cvo-final-sync-lost$/m, 'id: my-final-sync-lost');
const BROKEN = COPY.replace(/^id: my-final-sync-lost$/m, 'id: my-broken\nowner: me');
const SAMPLE = new URL('../../samples/cvo-final-sync-lost.tar.gz', import.meta.url).pathname;

/** A rule folder: a copy of a built-in rule under a new id, and a rule with a field the schema refuses. */
function ruleFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mgsift-test-build-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'cvo'));
  writeFileSync(join(dir, 'cvo', 'copy.yaml'), COPY);
  writeFileSync(join(dir, 'cvo', 'broken.yaml'), BROKEN);
  return dir;
}

/** The build's header line and its documents by key. */
function readBuild(dir: string): { header: Record<string, unknown>; documents: Map<string, string> } {
  const [first, ...lines] = readFileSync(join(dir, BUILT_RULES_FILE), 'utf8').trimEnd().split('\n');
  const header = JSON.parse(first!) as Record<string, unknown> & { documents: Record<string, [number, number]> };
  return { header, documents: new Map(Object.keys(header.documents).map((key, i) => [key, lines[i]!])) };
}

/** The build with the copy's stored document edited: by default its title, which shows the rule was taken from the build. */
function markStoredCopy(dir: string, edit = (json: string): string => json.replace(/"title":"[^"]*"/, '"title":"FROM THE BUILD"')): void {
  const { header, documents } = readBuild(dir);
  const key = documentKey(COPY);
  documents.set(key, edit(documents.get(key)!));
  writeFileSync(join(dir, BUILT_RULES_FILE), builtRulesText(documents, [], header['files'] as Record<string, FileStamp>));
}

describe('mgsift rules build', () => {
  it("stamps each stored file, whose document a run then takes unread, until the file's times change", async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    const copy = join(dir, 'cvo', 'copy.yaml');
    const { header } = readBuild(dir);
    expect(Object.keys(header['files'] as object)).toEqual(['cvo/copy.yaml']);
    const { documents } = readBuiltRules(dir, []);
    expect(JSON.parse(documents!.unchanged('cvo/copy.yaml', copy)!)).toMatchObject({ id: 'my-final-sync-lost' });
    expect(documents!.unchanged('cvo/broken.yaml', join(dir, 'cvo', 'broken.yaml')), 'not stored: no stamp').toBeUndefined();
    // Touched (the same text): the stamp no longer holds, and the file is read and keyed by its text.
    utimesSync(copy, new Date(), new Date(Date.now() - 60_000));
    expect(documents!.unchanged('cvo/copy.yaml', copy)).toBeUndefined();
    expect((await loadRules([dir], { builtin: false })).rules.map((r) => r.id)).toContain('my-final-sync-lost');
  });

  it('stores the rules that load whole, reports the others with their line and exits 1', () => {
    const dir = ruleFolder();
    const run = mgsift(['rules', 'build', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${join(dir, 'cvo', 'broken.yaml')}:3: (rule) must NOT have additional properties: 'owner'`);
    expect(run.stdout).toContain(`${join(dir, BUILT_RULES_FILE)}: 1 of 2 rule files checked whole; 1 with problems are parsed and checked at every run`);
    expect([...readBuild(dir).documents.keys()]).toEqual([documentKey(COPY)]);
  });

  it('refuses a path that is no folder, in one line', () => {
    const run = mgsift(['rules', 'build', join(tmpdir(), 'mgsift-no-such-folder')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('no such folder');
  });

  it('gives analyze the same report as the folder without its build', () => {
    const dir = ruleFolder();
    // A folder with a rule that does not load is refused by analyze, built or not.
    rmSync(join(dir, 'cvo', 'broken.yaml'));
    const report = (): Record<string, unknown> => {
      const run = mgsift(['analyze', SAMPLE, '--rules', dir, '--format', 'json', '-o', '-']);
      const parsed = JSON.parse(run.stdout) as Record<string, unknown> & { stats: Record<string, unknown> };
      delete parsed['generatedAt'];
      delete parsed.stats['durationMs'];
      return parsed;
    };
    const before = report();
    expect(mgsift(['rules', 'build', dir]).code).toBe(0);
    const after = report();
    expect(after).toEqual(before);
    expect((after['findings'] as { ruleId: string }[]).map((f) => f.ruleId)).toContain('my-final-sync-lost');
  });
});

describe('a rule folder built ahead', () => {
  it('gives an unchanged file its stored document, and a file edited since its own', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    markStoredCopy(dir);
    const title = async (): Promise<string | undefined> => (await loadRules([dir], { builtin: false })).rules.find((r) => r.id === 'my-final-sync-lost')?.title;
    expect(await title()).toBe('FROM THE BUILD');
    writeFileSync(join(dir, 'cvo', 'copy.yaml'), `${COPY}\n`);
    expect(await title()).toBe(COPY.match(/^title: (.*)$/m)![1]);
  });

  it('checks a file with problems at every load, as without a build', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    const { issues } = await loadRules([dir], { builtin: false });
    expect(issues.map((i) => `${i.line}: ${i.reason}`)).toEqual([expect.stringMatching(/^3: \(rule\) must NOT have additional properties: 'owner'$/)]);
  });

  it('is held to the schema and regex safety as the YAML is: a folder is less trusted, and its build no more', async () => {
    const dir = ruleFolder();
    rmSync(join(dir, 'cvo', 'broken.yaml'));
    mgsift(['rules', 'build', dir]);
    markStoredCopy(dir, (json) => json.replace('"title":', '"owner":"me","title":').replace(/"regex":"[^"]*"/, '"regex":"(a+)+$"'));
    const { rules, issues } = await loadRules([dir], { builtin: false });
    expect(rules).toEqual([]);
    expect(issues.map((i) => i.reason)).toEqual(["(rule) must NOT have additional properties: 'owner'"]);
    markStoredCopy(dir, (json) => json.replace('"owner":"me",', ''));
    expect((await loadRules([dir], { builtin: false })).issues.map((i) => i.reason)).toEqual([expect.stringMatching(/^regex .*backtrack/)]);
  });

  it('is not a build when it points past its own end', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    const path = join(dir, BUILT_RULES_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"documents":\{"([^"]+)":\[(\d+),(\d+)\]/, (_all, key: string, start: string) => `"documents":{"${key}":[${start},999999]`));
    expect((await loadRules([dir], { builtin: false })).notes).toEqual([`${path} is not a build of \`mgsift rules build\`: not used`]);
  });

  it('is set aside, with a note, once the shared signals it was checked with change', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    markStoredCopy(dir);
    mkdirSync(join(dir, '_shared'));
    writeFileSync(join(dir, '_shared', 'signals.yaml'), 'sharedSignals:\n  mine:\n    description: a signal of my own\n    fact:\n      name: pods\n');
    const loaded = await loadRules([dir], { builtin: false });
    expect(loaded.notes).toEqual([`${join(dir, BUILT_RULES_FILE)} is set aside: the shared signals changed since; \`mgsift rules build ${dir}\` makes it again`]);
    expect(loaded.rules.find((r) => r.id === 'my-final-sync-lost')?.title).not.toBe('FROM THE BUILD');
  });

  it('is set aside, with a note, when another mgsift made it or it is no build at all', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    const text = readFileSync(join(dir, BUILT_RULES_FILE), 'utf8');
    writeFileSync(join(dir, BUILT_RULES_FILE), text.replace(/"mgsift":"[^"]*"/, '"mgsift":"0.0.1"'));
    expect((await loadRules([dir], { builtin: false })).notes[0]).toMatch(/is set aside: mgsift 0\.0\.1 made it \(this is \d+\.\d+\.\d+\)/);
    writeFileSync(join(dir, BUILT_RULES_FILE), '{"documents": [\n');
    expect((await loadRules([dir], { builtin: false })).notes[0]).toMatch(/is not a build of `mgsift rules build` \(.+\): not used$/);
    // JSON that is no header, and a header on a line of its own with nothing after it: no build either.
    for (const broken of ['null\n', '[1, 2]\n', text.split('\n', 1)[0]!]) {
      writeFileSync(join(dir, BUILT_RULES_FILE), broken);
      expect((await loadRules([dir], { builtin: false })).notes, broken).toEqual([`${join(dir, BUILT_RULES_FILE)} is not a build of \`mgsift rules build\`: not used`]);
    }
  });

  it('is not read by rules lint, which checks every file whole', async () => {
    const dir = ruleFolder();
    mgsift(['rules', 'build', dir]);
    markStoredCopy(dir);
    const loaded = await loadRules([dir], { builtin: false, lint: true });
    expect(loaded.rules.find((r) => r.id === 'my-final-sync-lost')?.title).not.toBe('FROM THE BUILD');
  });
});
