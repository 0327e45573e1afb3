import { describe, expect, it } from 'vitest';
import { quantityValue } from '../../src/parsers/quantity.js';
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { CertificateCollector, certificateItems, type CertificateBundle } from '../../src/facts/certificates.js';
import { classifyPath } from '../../src/layout/classify.js';

describe('quantity(q)', () => {
  it('reads Kubernetes resource quantities as numbers', () => {
    expect(quantityValue('15934272Ki')).toBe(15934272 * 1024);
    expect(quantityValue('16Gi')).toBe(16 * 2 ** 30);
    expect(quantityValue('4')).toBe(4);
    expect(quantityValue('3500m')).toBe(3.5);
    expect(quantityValue('1e3')).toBe(1000);
    expect(quantityValue('16 GiB')).toBeUndefined();
  });
});

describe('certificateItems', () => {
  const day = 86_400_000;
  const at = Date.parse('2021-08-03T10:13:47Z');
  const bundle = (certs: { subject: string; notBefore: number; notAfter: number }[]): CertificateBundle => ({
    kind: 'ConfigMap', namespace: 'openshift-config-managed', name: 'kube-apiserver-client-ca', key: 'ca-bundle.crt', rotation: '', unreadable: 0, file: 'f',
    certs: certs.map((c) => ({ ...c, issuer: c.subject, ca: true })),
  });
  it('counts days from the collection time and marks an old signer beside its successor as superseded', () => {
    const items = certificateItems([bundle([
      { subject: 'CN=x_kube-control-plane-signer@1596449627', notBefore: at - 365 * day, notAfter: at - day },
      { subject: 'CN=x_kube-control-plane-signer@1627982337', notBefore: at - 50 * day, notAfter: at + 315 * day },
      { subject: 'CN=Example Corp Root CA', notBefore: at - 400 * day, notAfter: at - 2 * day },
    ])], at);
    expect(items.map((i) => [i.daysLeft, i.expired, i.superseded])).toEqual([[-1, true, true], [315, false, false], [-2, true, false]]);
  });
});

describe('CertificateCollector on a ConfigMap List', () => {
  // A real certificate (from a rule fixture), indented as oc writes it in a List item.
  const fixture = fg.sync('rules/certificates/certificate-expiry.fixtures/fires-expired-user-ca/input/**/openshift-config/core/configmaps.yaml')[0]!;
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(readFileSync(fixture, 'utf8'))![0].replace(/\n +/g, '\n');
  const item = (namespace: string, name: string, data: string): string =>
    `- apiVersion: v1\n  data:\n${data}  kind: ConfigMap\n  metadata:\n    name: ${name}\n    namespace: ${namespace}\n`;
  const block = (key: string): string => `    ${key}: |\n      ${pem.replaceAll('\n', '\n      ')}\n`;
  const list = `apiVersion: v1\nitems:\n${item('ns-a', 'kube-root-ca.crt', block('ca.crt'))}${item('ns-b', 'kube-root-ca.crt', block('ca.crt'))}${item('ns-c', 'mine', `${block('ca.crt')}    other: x\n`)}kind: ConfigMapList\n`;

  it('reads every copy, those sharing one data text and one with its own, wherever the chunks split', () => {
    const entry = classifyPath('must-gather.local.1/quay-io-x/namespaces/ns-a/core/configmaps.yaml');
    for (const size of [7, 64, list.length]) {
      const collector = new CertificateCollector();
      const bytes = Buffer.from(list);
      for (let at = 0; at < bytes.length; at += size) collector.text(bytes.subarray(at, at + size), entry);
      collector.endText(entry);
      const bundles = collector.result()!;
      expect(bundles.map((b) => `${b.namespace}/${b.name}/${b.key} ${b.rotation} ${b.certs.length}`), `chunks of ${size}`).toEqual([
        'ns-a/kube-root-ca.crt/ca.crt kube-root-ca 1',
        'ns-b/kube-root-ca.crt/ca.crt kube-root-ca 1',
        'ns-c/mine/ca.crt  1',
      ]);
      expect(bundles[0]!.certs[0]!.subject).toBe('CN=Example Corp Root CA 2011');
    }
  });
});
