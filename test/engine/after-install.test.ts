import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/analysis/analyze.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { loadRuleText } from '../../src/engine/load.js';
import type { Rule } from '../../src/engine/rule.js';
import { tempDir } from '../helpers/archives.js';

const FIXTURES = fileURLToPath(new URL('../../rules/workloads/events-pathological.fixtures/', import.meta.url));

/** Events repeated more than 20 times, with or without `afterInstall`. */
function repeatedRule(afterInstall: boolean): Rule {
  const text = `id: repeated-demo
title: Repeated demo
severity: warning
status: experimental
component: demo
signals:
  repeated:
    event: { afterInstall: ${afterInstall}, where: "has(object.count) && object.count > 20" }
message: "{{#each evidence}}{{this.reason}} {{/each}}"
`;
  const { rule, issues } = loadRuleText('repeated-demo.yaml', text, false);
  expect(issues).toEqual([]);
  return rule!;
}

async function reasons(input: string, afterInstall: boolean): Promise<string[] | undefined> {
  const analysis = await analyzeInput(isAbsolute(input) ? input : FIXTURES + input, { limits: DEFAULT_LIMITS, rules: [repeatedRule(afterInstall)] });
  const finding = analysis.result!.findings[0];
  return finding?.message.trim().split(' ').sort();
}

describe('event signal afterInstall', () => {
  it('drops events first seen before the install completed (9 of the real archive repeated at install), keeps later ones', async () => {
    expect(await reasons('quiet-install-time-benign-and-under/input', false)).toHaveLength(12);
    expect(await reasons('quiet-install-time-benign-and-under/input', true)).toEqual(['BackOff', 'Unhealthy', 'WaitForFirstConsumer']);
    // MissingVersion began at 09:18:58, before the install completed at 09:45:28; Failed happened 20 times only.
    expect(await reasons('fires-after-install/input', true)).toEqual(['BackOff', 'ConfigMissing', 'FailedCreatePodSandBox', 'Unhealthy']);
    expect(await reasons('fires-after-install/input', false)).toContain('MissingVersion');
  });

  it('keeps an event begun while the cluster installed that still repeats 15 minutes after, drops one that settled with it', async () => {
    // The fixture's install completed at 09:45:28.
    const input = join(tempDir(), 'mg');
    cpSync(FIXTURES + 'not-checked-no-events/input', input, { recursive: true });
    const root = readdirSync(input).map((d) => join(input, d, readdirSync(join(input, d))[0]!))[0]!;
    mkdirSync(join(root, 'namespaces/shop/core'), { recursive: true });
    const event = (reason: string, last: string): string =>
      `- apiVersion: v1\n  count: 40\n  firstTimestamp: '2021-08-03T09:31:00Z'\n  lastTimestamp: '${last}'\n  involvedObject: {kind: Pod, name: cart-${reason.toLowerCase()}, namespace: shop}\n  kind: Event\n  message: ${reason} demo\n  metadata: {name: cart.${reason.toLowerCase()}, namespace: shop}\n  reason: ${reason}\n  type: Warning\n`;
    writeFileSync(join(root, 'namespaces/shop/core/events.yaml'), `apiVersion: v1\nitems:\n${event('StillFailing', '2021-08-03T10:02:00Z')}${event('Settled', '2021-08-03T09:52:00Z')}kind: List\n`);
    expect(await reasons(input, true)).toEqual(['StillFailing']);
    expect(await reasons(input, false)).toEqual(['Settled', 'StillFailing']);
  });
});

/** `bad` lines of a pod's previous log, with or without `afterInstall` (or with a settling span), by their texts. */
async function loggedLines(input: string, afterInstall: boolean | string): Promise<string[]> {
  const text = `id: logged-demo
title: Logged demo
severity: warning
status: experimental
component: demo
signals:
  bad:
    log: { files: [{namespace: shop}], regex: 'bad (?<what>\\w+)', afterInstall: ${JSON.stringify(afterInstall)} }
message: "{{#each evidence}}{{this.captures.what}} {{/each}}"
`;
  const { rule, issues } = loadRuleText('logged-demo.yaml', text, false);
  expect(issues).toEqual([]);
  const analysis = await analyzeInput(input, { limits: DEFAULT_LIMITS, rules: [rule!] });
  return analysis.result!.findings[0]?.message.trim().split(' ').sort() ?? [];
}

describe('log signal afterInstall', () => {
  /** The real AWS sample's layout (install completed at 09:45:28), with a pod log; `withHistory: false` drops the ClusterVersion. */
  function archive(withHistory: boolean): string {
    const input = join(tempDir(), 'mg');
    cpSync(FIXTURES + 'not-checked-no-events/input', input, { recursive: true });
    const root = readdirSync(input).map((d) => join(input, d, readdirSync(join(input, d))[0]!))[0]!;
    if (!withHistory) rmSync(join(root, 'cluster-scoped-resources'), { recursive: true });
    const logs = join(root, 'namespaces/shop/pods/cart-1/cart/cart/logs');
    mkdirSync(logs, { recursive: true });
    writeFileSync(
      join(logs, 'previous.log'),
      '2021-08-03T09:30:00.000000000Z E0803 09:30:00.000000       1 cart.go:1] bad during\n' +
        'bad undated\n' +
        '2021-08-03T10:45:00.000000000Z E0803 10:45:00.000000       1 cart.go:1] bad after\n',
    );
    return input;
  }

  it('drops lines dated before the install completed, keeps later and undated ones', async () => {
    const input = archive(true);
    expect(await loggedLines(input, true)).toEqual(['after', 'undated']);
    expect(await loggedLines(input, false)).toEqual(['after', 'during', 'undated']);
  });

  it('with a duration, drops lines within that long after the install completed', async () => {
    const input = archive(true);
    // 10:45:00 is within the hour after 09:45:28, not within 59 minutes.
    expect(await loggedLines(input, '1h')).toEqual(['undated']);
    expect(await loggedLines(input, '59m')).toEqual(['after', 'undated']);
  });

  it('keeps every line when the install completion is unknown', async () => {
    expect(await loggedLines(archive(false), true)).toEqual(['after', 'during', 'undated']);
  });
});
