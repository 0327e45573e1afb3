import { describe, expect, it } from 'vitest';
import { quantityValue } from '../../src/parsers/quantity.js';
import { certificateItems, type CertificateBundle } from '../../src/facts/certificates.js';

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
