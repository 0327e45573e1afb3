import { describe, it, expect } from 'vitest';
import { loadRules, loadRuleText } from '../../src/engine/load.js';
import { authoringIssues } from '../../src/engine/rule-source.js';
import { packSharedFiles } from '../../src/engine/shared-signals.js';

const GOOD = `id: demo-rule
title: A demo rule
severity: warning
status: experimental
component: demo
signals:
  line:
    log:
      files: [{ bare: true }]
      regex: 'boom (?<what>\\w+)'
message: "saw {{signals.line.first.what}}"
`;

describe('rule loading and lint issues', () => {
  it('loads a valid rule and derives its prefilter literal', () => {
    const { rule, issues } = loadRuleText('demo.yaml', GOOD, false);
    expect(issues).toEqual([]);
    expect(rule?.signals[0]).toMatchObject({ type: 'log', literals: ['boom '] });
  });

  it('reports an unknown field with its line', () => {
    const { issues } = loadRuleText('bad.yaml', GOOD.replace('status: experimental', 'status: experimental\nowner: me'), false);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 'bad.yaml', line: 5 });
    expect(issues[0]!.reason).toMatch(/owner/);
  });

  it('refuses a catastrophic regex, naming the line of the regex', () => {
    const { issues } = loadRuleText('redos.yaml', GOOD.replace("'boom (?<what>\\w+)'", () => "'(a+)+$'"), false);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line, JSON.stringify(issues)).toBe(10);
    expect(issues[0]!.reason).toMatch(/backtrack/);
    // The verdict on a regex is remembered by its text: a second rule writing it is refused as well.
    const again = loadRuleText('redos-again.yaml', GOOD.replace('id: demo', 'id: demo-again').replace("'boom (?<what>\\w+)'", () => "'(a+)+$'"), false);
    expect(again.rule).toBeUndefined();
    expect(again.issues.map((i) => i.reason)).toEqual([issues[0]!.reason]);
  });

  it('refuses a template that does not compile and a condition naming an unknown signal', () => {
    const broken = GOOD.replace('message: "saw {{signals.line.first.what}}"', 'message: "saw {{#each x}}"\ncondition: line and other');
    const { issues } = loadRuleText('tpl.yaml', broken, false);
    expect(issues.map((i) => i.reason).join('\n')).toMatch(/template/);
    expect(issues.map((i) => i.reason).join('\n')).toMatch(/unknown signal 'other'/);
  });

  it('refuses an invalid CEL expression and a bad version range', () => {
    const text = GOOD.replace('signals:', 'applies:\n  versions: ">=banana"\nsignals:\n  obj:\n    resource:\n      kind: Pod\n      where: "object.status.phase =="');
    const reasons = loadRuleText('cel.yaml', text, false).issues.map((i) => i.reason).join('\n');
    expect(reasons).toMatch(/CEL/);
    expect(reasons).toMatch(/version range/);
  });

  it('loads about, mentions, windows and explains, and names the line of a link to an unknown signal', () => {
    const links = `${GOOD}about:
  - signal: line
    kind: Pod
mentions:
  - { signal: line, kind: Node, name: "{{what}}" }
windows:
  - { from: "{{collectedAt}}", label: the run }
explains:
  - rules: [other-rule]
  - kinds: [Node]
    by: time
`;
    const { rule, issues } = loadRuleText('links.yaml', links, false);
    expect(issues).toEqual([]);
    expect(rule?.explains).toEqual([
      { rules: ['other-rule'], kinds: [], by: 'object', because: undefined },
      { rules: [], kinds: ['Node'], by: 'time', because: undefined },
    ]);
    const unknown = loadRuleText('links.yaml', links.replace('  - signal: line\n    kind: Pod', '  - signal: nope\n    kind: Pod'), false);
    expect(unknown.issues.map((i) => i.reason)).toEqual(["about names unknown signal 'nope'"]);
    expect(unknown.issues[0]!.line).toBe(12);
    const noAbout = loadRuleText('links.yaml', `${GOOD}explains:\n  - rules: [other-rule]\n`, false);
    expect(noAbout.issues.map((i) => i.reason)).toEqual(['explains by object needs about']);
  });

  it('compiles a resource match (field path and regex) and refuses a path it cannot read', () => {
    const resource = GOOD.replace(
      "    log:\n      files: [{ bare: true }]\n      regex: 'boom (?<what>\\w+)'",
      "    resource:\n      kind: ClusterOperator\n      group: config.openshift.io\n      match:\n        field: status.conditions[status=True].message\n        regex: 'pool (?<pool>[a-z]+) is'",
    );
    const { rule, issues } = loadRuleText('match.yaml', resource, false);
    expect(issues).toEqual([]);
    expect(rule?.signals[0]).toMatchObject({ type: 'resource', match: { required: true } });
    const bad = loadRuleText('match.yaml', resource.replace('status.conditions[status=True].message', 'status..message'), false);
    expect(bad.issues[0]!.reason).toMatch(/field path 'status..message': cannot read/);
  });

  it('loads counts and absent() in conditions and CEL on event signals, and refuses them when broken', () => {
    const events = GOOD.replace('signals:', () => "signals:\n  ev:\n    event:\n      reason: '^BackOff$'\n      where: \"object.count >= 3\"").replace(
      'message:',
      'condition: line >= 2 or (ev and absent(line))\nmessage:',
    );
    const { rule, issues } = loadRuleText('counts.yaml', events, false);
    expect(issues).toEqual([]);
    expect(rule?.signals.find((s) => s.name === 'ev')).toMatchObject({ type: 'event', where: expect.any(Function) });
    const broken = events.replace('object.count >= 3', 'object.count >=').replace('line >= 2', 'line >= two').replace('absent(line)', 'absent(nothing)');
    const reasons = loadRuleText('broken.yaml', broken, false).issues.map((i) => i.reason).join('\n');
    expect(reasons).toMatch(/CEL/);
    expect(reasons).toMatch(/expected a number after '>='/);
  });
});

describe('rules lint: what an unfinished rule file still holds', () => {
  const withReferences = (...references: string[]): string => GOOD.replace('signals:', `references:\n${references.map((r) => `  - ${JSON.stringify(r)}`).join('\n')}\nsignals:`);

  it('refuses a reference that is not an https link, naming its line', () => {
    const text = withReferences('https://github.com/openshift/runbooks', 'Red Hat KB: Boot Image Updates', 'http://example.com/x', 'github.com/openshift/oc');
    expect(loadRuleText('refs.yaml', text, false).issues).toEqual([]);
    expect(authoringIssues('refs.yaml', text)).toEqual([
      { file: 'refs.yaml', line: 8, reason: "reference 'Red Hat KB: Boot Image Updates' is not an https:// link" },
      { file: 'refs.yaml', line: 9, reason: "reference 'http://example.com/x' is not an https:// link" },
      { file: 'refs.yaml', line: 10, reason: "reference 'github.com/openshift/oc' is not an https:// link" },
    ]);
  });

  it("takes a template that renders the evidence's own link, or an https link with a template in it", () => {
    const text = withReferences('{{#with evidence.[0].item}}{{runbookUrl}}{{/with}}', 'https://docs.openshift.com/container-platform/{{version}}/x.html');
    expect(authoringIssues('refs.yaml', text)).toEqual([]);
    expect(authoringIssues('refs.yaml', withReferences('see {{runbookUrl}}'))[0]!.reason).toMatch(/not an https:\/\/ link/);
  });

  it('refuses an EDIT: placeholder left from rules new, wherever it is', () => {
    const text = GOOD.replace('message: "saw', 'falsepositives: "EDIT: when it is harmless"\nmessage: "EDIT: saw');
    expect(loadRuleText('edit.yaml', text, false).issues).toEqual([]);
    expect(authoringIssues('edit.yaml', text)).toEqual([
      { file: 'edit.yaml', line: 11, reason: "placeholder 'EDIT:' left from `rules new`: write what it asks for" },
      { file: 'edit.yaml', line: 12, reason: "placeholder 'EDIT:' left from `rules new`: write what it asks for" },
    ]);
    expect(authoringIssues('edit.yaml', `# Edit what says EDIT, then run lint\n${GOOD}`)).toEqual([]);
  });

  it('refuses a headline with a loop or on more than one line, naming its line', () => {
    const loop = GOOD.replace('message:', 'headline: "{{#each evidence}}{{pod}} {{/each}}fail"\nmessage:');
    expect(loadRuleText('loop.yaml', loop, false).issues).toEqual([]);
    expect(authoringIssues('loop.yaml', loop)).toEqual([{ file: 'loop.yaml', line: 11, reason: expect.stringMatching(/^headline: no loops/) as string }]);
    const twoLines = GOOD.replace('message:', 'headline: |-\n  {{plural signals.line.count "line"}}\n  since {{time since}}\nmessage:');
    expect(authoringIssues('lines.yaml', twoLines)).toEqual([{ file: 'lines.yaml', line: 11, reason: expect.stringMatching(/^headline: one line/) as string }]);
    const fine = GOOD.replace('message:', 'headline: \'{{plural signals.line.count "line"}} from {{names (unique evidence "pod") 3}}{{#if since}} since {{time since}}{{/if}}\'\nmessage:');
    expect(authoringIssues('fine.yaml', fine)).toEqual([]);
  });

  it('finds nothing unfinished in the built-in pack: every reference of its rules and shared signals is an https link', async () => {
    const { issues } = await loadRules([], { lint: true });
    expect(issues).toEqual([]);
    expect(packSharedFiles().flatMap(({ file, text }) => authoringIssues(file, text))).toEqual([]);
  });
});
