import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCertificateFields } from '../../src/parsers/x509.js';

const DIR = new URL('../fixtures/x509/', import.meta.url);
const pems = readdirSync(DIR)
  .filter((file) => file.endsWith('.pem'))
  .map((file) => ({ file, pem: readFileSync(new URL(file, DIR), 'utf8').trim() }));

/** What Node's reader says of a certificate, as the certificates fact reads it. */
function nodeFields(pem: string): ReturnType<typeof readCertificateFields> {
  const cert = new X509Certificate(pem);
  return { subject: cert.subject, issuer: cert.issuer, notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo), ca: cert.ca };
}

/** Names Node prints in ways this reader leaves to it: `#` first (escaped), several values in one RDN, non-ASCII, attribute types it does not name. */
const LEFT_TO_NODE = new Set(['leading-hash.pem', 'multi-valued-rdn.pem', 'non-ascii.pem', 'domain-components.pem']);

describe('readCertificateFields', () => {
  it('reads every field as Node reads it, or leaves the certificate to Node', () => {
    expect(pems.length).toBeGreaterThanOrEqual(13);
    for (const { file, pem } of pems) {
      const fields = readCertificateFields(pem);
      if (LEFT_TO_NODE.has(file)) expect(fields, file).toBeUndefined();
      else expect(fields, file).toEqual(nodeFields(pem));
    }
  });

  it("tells a CA as OpenSSL's X509_check_ca does: basicConstraints CA:TRUE, and keyCertSign when keyUsage is there", () => {
    const ca = (file: string): boolean | undefined => readCertificateFields(pems.find((p) => p.file === file)!.pem)?.ca;
    expect(ca('ca-keycertsign.pem')).toBe(true);
    expect(ca('ca-keyusage-no-certsign.pem')).toBe(false);
    expect(ca('leaf-ca-false.pem')).toBe(false);
    // A v1 certificate has no extensions: even self-signed, Node's `ca` is false.
    expect(ca('v1.pem')).toBe(false);
  });

  it('reads a validity past 2049 (GeneralizedTime) and escapes RFC 2253 characters as Node prints them', () => {
    const far = readCertificateFields(pems.find((p) => p.file === 'generalized-time.pem')!.pem)!;
    expect(new Date(far.notAfter).getUTCFullYear()).toBeGreaterThan(2049);
    expect(readCertificateFields(pems.find((p) => p.file === 'specials.pem')!.pem)?.subject).toBe('O=Semi\\;colon \\<angle\\> quoted back\\\\slash plus\\+sign\\, comma\nCN=specials');
  });

  it('leaves to Node what is not a plain PEM block or not whole DER', () => {
    const { pem } = pems.find((p) => p.file === 'leaf-ca-false.pem')!;
    const lines = pem.split('\n');
    // Indented lines (a value cut from YAML as it stands), a cut body, a byte too many.
    expect(readCertificateFields(lines.map((line, i) => (i > 0 ? `  ${line}` : line)).join('\n'))).toBeUndefined();
    expect(readCertificateFields([lines[0], ...lines.slice(1, 4), lines.at(-1)].join('\n'))).toBeUndefined();
    const der = Buffer.from(lines.slice(1, -1).join(''), 'base64');
    const longer = Buffer.concat([der, Buffer.from([0])]).toString('base64');
    expect(readCertificateFields(`-----BEGIN CERTIFICATE-----\n${longer}\n-----END CERTIFICATE-----`)).toBeUndefined();
    expect(readCertificateFields('-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----')).toBeUndefined();
  });
});
