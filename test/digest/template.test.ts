import { describe, it, expect } from 'vitest';
import { CUT_MARK, longestLiteral, maskMessage, MAX_MESSAGE_CHARS, templateId, templateRegex, variableCount } from '../../src/digest/template.js';
import { bestTemplate, generalize, tokenize } from '../../src/digest/drain.js';
import { unsafeRegexReason } from '../../src/engine/regex-safety.js';

// Messages (after the klog header or the log prefix) from ../shared/samples-real/must-gather-aws.tar.xz
// (openshift/must-gather-clean, Apache-2.0), unless said otherwise.
const REAL: [string, string][] = [
  [
    'couldn\'t get current server API group list: Get "https://172.30.0.1:443/api?timeout=32s": dial tcp 172.30.0.1:443: connect: connection refused',
    'couldn\'t get current server API group list: Get "https://<ip>/api?<query>": dial tcp <ip>: connect: connection refused',
  ],
  [
    'Operation for "{volumeName:kubernetes.io/secret/f7c90be6-10a6-46cf-a39e-c99366a43900-serving-cert podName:f7c90be6-10a6-46cf-a39e-c99366a43900 nodeName:}" failed. No retries permitted until 2021-08-03 09:17:56.81445576 +0000 UTC m=+14.594706161 (durationBeforeRetry 500ms).',
    'Operation for "{volumeName:kubernetes.io/secret/<uuid>-serving-cert podName:<uuid> nodeName:}" failed. No retries permitted until <time> (durationBeforeRetry <dur>).',
  ],
  [
    '"Error getting node" err="node \\"ip-10-0-195-177.ec2.internal\\" not found"',
    '"Error getting node" err="node \\"<host>\\" not found"',
  ],
  [
    'error running apply for role "openshift-console-operator/prometheus-k8s" (611 of 676): namespaces "openshift-console-operator" not found',
    'error running apply for role "<name>" (<num> of <num>): namespaces "<name>" not found',
  ],
  [
    'Pid for infra container 8ebe39ddc2b93e92906649547d0437d49aa486a1f695d6c3c1facc259a5beb3e not found: open /proc/12068/stat: no such file or directory',
    'Pid for infra container <hex> not found: open /proc/<num>/stat: no such file or directory',
  ],
  [
    'got retryable error; requeueing\t{"after": "59m59.999985593s", "error": "IngressController is degraded"}',
    'got retryable error; requeueing\t{"after": "<dur>", "error": "IngressController is degraded"}',
  ],
  [
    'time="2021-08-03T09:20:45Z" level=error msg="no matches for kind \\"OperatorSource\\" in version \\"operators.coreos.com/v1\\"[migration] Error while migrating"',
    'time="<time>" level=error msg="no matches for kind \\"OperatorSource\\" in version \\"<name>\\"[migration] Error while migrating"',
  ],
  [
    '{"level":"error","ts":1627982430.0169034,"logger":"controllers.operatorcondition","msg":"Error ensuring OperatorCondition","request":"openshift-operator-lifecycle-manager/packageserver"}',
    '{"level":"error","ts":<num>,"logger":"<name>","msg":"Error ensuring OperatorCondition","request":"<name>"}',
  ],
  // The capability line of seed 001 (openshift/release PR 43984).
  [
    'ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.knownCapabilities[0]: Unsupported value: "Build"',
    'ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.knownCapabilities[<num>]: Unsupported value: "Build"',
  ],
];

describe('maskMessage', () => {
  it.each(REAL)('masks the variable parts of a real line: %s', (message, template) => {
    expect(maskMessage(message)).toBe(template);
  });

  it('masks pod-name suffixes (ReplicaSet hash and random suffix, or the suffix alone)', () => {
    expect(maskMessage('deleting pod router-default-6dd4c95495-7dqkw and ovnkube-master-t8phs')).toBe('deleting pod router-default-<pod> and ovnkube-master-<pod>');
    // Words with vowels are not suffixes.
    expect(maskMessage('kube-rbac-proxy failed')).toBe('kube-rbac-proxy failed');
  });

  it('masks IPv6 addresses, bracketed with ports or bare', () => {
    expect(maskMessage('dial tcp [fd2e:6f44:5dd8:c956::14]:2379: connect: connection refused')).toBe('dial tcp <ip>: connect: connection refused');
    expect(maskMessage('no route to fd00::1 from fe80::a8bb:ccff:fe00:1')).toBe('no route to <ip> from <ip>');
    expect(maskMessage('listen on ::1 failed')).toBe('listen on <ip> failed');
  });

  it('keeps identifiers that merely hold digits, and plain quoted words (kinds, enum values)', () => {
    expect(maskMessage('x509: certificate signed by unknown authority for k8s v1')).toBe('x509: certificate signed by unknown authority for k8s v1');
    expect(maskMessage('kind "ClusterVersion" in "version"')).toBe('kind "ClusterVersion" in "version"');
  });

  it('cuts a long message at a word and marks the cut', () => {
    const long = `start ${'word '.repeat(400)}end`;
    const masked = maskMessage(long);
    expect(masked.endsWith(CUT_MARK)).toBe(true);
    expect(masked.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + CUT_MARK.length);
    expect(masked).not.toContain('end');
  });
});

describe('templateRegex and longestLiteral', () => {
  const line = '2021-08-03T09:24:51.420112604Z E0803 09:24:51.419846       1 task.go:112] error running apply for role "openshift-console-operator/prometheus-k8s" (611 of 676): namespaces "openshift-console-operator" not found';
  const template = 'task.go:112] error running apply for role "<name>" (<num> of <num>): namespaces "<name>" not found';

  it('matches the lines the template folds, with the call site line number generalized', () => {
    const regex = new RegExp(templateRegex(template));
    expect(regex.test(line)).toBe(true);
    expect(regex.test(line.replace('task.go:112]', 'task.go:118]'))).toBe(true);
    expect(regex.test(line.replace('running apply', 'running delete'))).toBe(false);
    expect(unsafeRegexReason(templateRegex(template))).toBeUndefined();
  });

  it('gives the longest constant run, which the regex holds verbatim', () => {
    const literal = longestLiteral(template);
    expect(literal).toBe('] error running apply for role "');
    expect(templateRegex(template)).toContain(literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  });

  it('starts at the first constant part and can keep only a head of the template', () => {
    const zap = '<time>\tERROR\toperator.ingress_controller\tcontroller/controller.go:<num>\tgot retryable error; requeueing\t{"after": "<dur>"}';
    expect(templateRegex(zap).startsWith('\\s+ERROR\\s+')).toBe(true);
    expect(variableCount(zap)).toBe(2);
    expect(templateRegex(zap, 1)).toBe('\\s+ERROR\\s+operator\\.ingress_controller\\s+controller/controller\\.go:\\d[\\d.]*\\s+got retryable error; requeueing\\s+\\{"after": "');
    expect(new RegExp(templateRegex(zap)).test('2021-08-03T09:27:23.982207044Z 2021-08-03T09:27:23.980Z\tERROR\toperator.ingress_controller\tcontroller/controller.go:298\tgot retryable error; requeueing\t{"after": "59m59.999985593s"}')).toBe(true);
  });

  it('every placeholder pattern is accepted by the rule loader', () => {
    const all = '<query> <time> <uuid> <ip> <host> <hex> x-<pod> <dur> "<name>" <num> <*>';
    expect(unsafeRegexReason(templateRegex(`x ${all}`))).toBeUndefined();
  });
});

describe('templateId', () => {
  it('is stable, short, and depends on component and template', () => {
    expect(templateId('ns/c', 'a <num>')).toBe(templateId('ns/c', 'a <num>'));
    expect(templateId('ns/c', 'a <num>')).toMatch(/^[0-9a-f]{10}$/);
    expect(templateId('ns/d', 'a <num>')).not.toBe(templateId('ns/c', 'a <num>'));
  });
});

describe('Drain merging', () => {
  it('tokenizes on blanks and commas, keeping them', () => {
    expect(tokenize('a  b,c')).toEqual(['a', '  ', 'b', ',', 'c']);
  });

  it('joins a message repeating at least half the tokens, turning the others into wildcards', () => {
    const template = { parts: tokenize('Cluster operator authentication is not available') };
    const message = tokenize('Cluster operator monitoring is not available');
    expect(bestTemplate([template], message)).toBe(template);
    generalize(template.parts, message);
    expect(template.parts.join('')).toBe('Cluster operator <*> is not available');
    // A wildcard covers any token.
    expect(bestTemplate([template], tokenize('Cluster operator ingress is not available'))).toBe(template);
    expect(bestTemplate([template], tokenize('Static pod etcd is not ready'))).toBeUndefined();
  });
});

describe('<host> in a rule made from a template', () => {
  it('matches any host name, not only the AWS form it was seen in', () => {
    const template = maskMessage('"Error getting node" err="node \\"ip-10-0-195-177.ec2.internal\\" not found"');
    expect(template).toContain('<host>');
    const regex = new RegExp(templateRegex(template));
    expect(regex.test('"Error getting node" err="node \\"ip-10-0-187-218.ec2.internal\\" not found"')).toBe(true);
    expect(regex.test('"Error getting node" err="node \\"master-2.ci-ln-x.rhcloud.com\\" not found"')).toBe(true);
  });
});

