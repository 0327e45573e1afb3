/**
 * The X.509 reader against Node's on every certificate of the real must-gathers in the repository:
 * each field as Node reads it, or the certificate left to Node (about a second).
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Problems } from '../../src/core/problems.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { readAll } from '../../src/sources/bytes.js';
import { openInput } from '../../src/sources/open.js';
import { parseYamlItems } from '../../src/parsers/yaml.js';
import { readCertificateFields } from '../../src/parsers/x509.js';

const ARCHIVES = ['must-gather-azure.tar.xz', 'must-gather-vsphere.tar.xz'].map((name) => new URL(`../precision/archives/${name}`, import.meta.url).pathname);
const PEM = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Every PEM block in the ConfigMaps' and Secrets' values of an archive (a Secret's value decoded from base64). */
async function pemsOf(archive: string): Promise<Set<string>> {
  const problems = new Problems();
  const source = await openInput(archive, { limits: DEFAULT_LIMITS, problems });
  const pems = new Set<string>();
  for await (const entry of source.entries()) {
    if (entry.type !== 'file' || !/\/core\/(configmaps|secrets)(\.yaml$|\/)/.test(entry.path)) continue;
    const text = (await readAll(entry.body(), DEFAULT_LIMITS.maxEntryBytes)).toString('utf8');
    for (const { object } of parseYamlItems(text, entry.path, problems)) {
      const data = (object as { data?: Record<string, unknown> }).data ?? {};
      for (const value of Object.values(data)) {
        if (typeof value !== 'string') continue;
        const plain = object.kind === 'Secret' ? Buffer.from(value, 'base64').toString('latin1') : value;
        for (const pem of plain.match(PEM) ?? []) pems.add(pem);
      }
    }
  }
  return pems;
}

describe('readCertificateFields on real certificates', () => {
  it('reads every certificate of the real must-gathers as Node does, or leaves it to Node', async () => {
    let read = 0;
    let left = 0;
    for (const archive of ARCHIVES) {
      for (const pem of await pemsOf(archive)) {
        const fields = readCertificateFields(pem);
        if (fields === undefined) {
          left++;
          continue;
        }
        const cert = new X509Certificate(pem);
        expect(fields, pem.slice(28, 90)).toEqual({ subject: cert.subject, issuer: cert.issuer, notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo), ca: cert.ca });
        read++;
      }
    }
    // Nearly all: only public roots with non-ASCII names are left to Node.
    expect(read).toBeGreaterThan(150);
    expect(left).toBeLessThan(read / 20);
  });
});
