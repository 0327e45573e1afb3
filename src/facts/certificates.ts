/**
 * The X.509 certificates an archive holds in the clear: PEM in ConfigMaps (`ca-bundle.crt`,
 * `ca.crt`, `service-ca.crt`, any key holding `-----BEGIN CERTIFICATE-----`) and in the Secret keys
 * `oc adm inspect` keeps (`tls.crt`, `ca.crt`, `service-ca.crt`: openshift/oc
 * pkg/cli/admin/inspect/secret.go `publicSecretKeys`; every other Secret value is replaced by
 * `<n> bytes long`). Each certificate is read from its DER (parsers/x509.ts), or with Node's
 * `crypto.X509Certificate` when that reader does not read it.
 *
 * Who renews a bundle is told from the marks the platform leaves on it:
 * - `certrotation`: library-go's certrotation controllers annotate the secrets they rotate with
 *   `auth.openshift.io/certificate-not-after` (and `-not-before`, `-issuer`);
 * - `service-ca`: service-ca-operator's serving certificates (`service.beta.openshift.io/originating-service-name`,
 *   `service.alpha.openshift.io/…`) and the bundles it injects (`service.beta.openshift.io/inject-cabundle`,
 *   `service.alpha.openshift.io/inject-cabundle`, the `openshift-service-ca.crt` ConfigMap);
 * - `trusted-ca-injection`: the cluster-network-operator's trusted CA bundle (the OS's roots plus the
 *   proxy's `trustedCA`): ConfigMaps labelled `config.openshift.io/inject-trusted-cabundle` and
 *   `openshift-config-managed/trusted-ca-bundle`, and copies operators make of it without the label
 *   (cluster-monitoring-operator's `<component>-trusted-ca-bundle-<hash>`): a bundle of 50 or more
 *   certificates, nine in ten of them self-signed, is taken for an OS root store (some old roots are
 *   v1 certificates without a CA flag); an expired public root in one is harmless. The labelled
 *   copies are not read at all (every namespace that asks gets one; the proxy's own CA is read
 *   where the user put it, `user-ca-bundle` in openshift-config);
 * - `kube-root-ca`: the `kube-root-ca.crt` ConfigMap kube-controller-manager publishes in every
 *   namespace (the copies in service-account token Secrets are not read);
 * - `static-pod-revision`: a copy kept for a static-pod revision (owned by `revision-status-<n>`);
 *   only the newest revision is in use.
 * Anything else is `''`: nothing in the archive says the platform renews it.
 */
import { X509Certificate } from 'node:crypto';
import { detachData } from '../core/detach.js';
import { RecordingConsumer, type Need } from '../ingest/consumer.js';
import type { ClassifiedEntry } from '../layout/types.js';
import type { K8sObject } from '../parsers/k8s.js';
import { parseYamlItems } from '../parsers/yaml.js';
import { parseJsonTextItems } from '../parsers/json.js';
import { cutTopLevelKey, ListItemStream, listItemDocument } from '../parsers/yaml-list-items.js';
import { Problems } from '../core/problems.js';
import type { Pick } from '../parsers/yaml-block.js';
import { arrayAt, isRecord, stringAt } from './internal.js';
import { readCertificateFields } from '../parsers/x509.js';

export type CertificateRotation = 'certrotation' | 'service-ca' | 'trusted-ca-injection' | 'kube-root-ca' | 'static-pod-revision' | '';

export interface CertificateInfo {
  subject: string;
  issuer: string;
  /** Epoch ms. */
  notBefore: number;
  notAfter: number;
  /** basicConstraints CA:TRUE. */
  ca: boolean;
}

/** One data key holding PEM certificates. */
export interface CertificateBundle {
  kind: 'ConfigMap' | 'Secret';
  namespace: string;
  name: string;
  key: string;
  /** The Secret's type (`kubernetes.io/tls`, …); undefined for a ConfigMap. */
  type?: string | undefined;
  rotation: CertificateRotation;
  certs: CertificateInfo[];
  /** PEM blocks that did not parse. */
  unreadable: number;
  file: string;
}

/** What rules see: one item per certificate, at the collection time. */
export interface CertificateItem {
  kind: string;
  namespace: string;
  name: string;
  key: string;
  type: string;
  rotation: CertificateRotation;
  /** Position in its bundle (0 is the leaf of a `tls.crt`) and how many the bundle holds. */
  index: number;
  count: number;
  subject: string;
  issuer: string;
  ca: boolean;
  notBefore: string;
  notAfter: string;
  /** Days from the collection time to notAfter (negative: expired), one decimal. */
  daysLeft: number;
  /** Days from notBefore to notAfter. */
  validityDays: number;
  expired: boolean;
  /**
   * Another certificate of the same bundle with the same subject, up to the `@<unix time>` the
   * platform's signers carry (`openshift-service-serving-signer@1627982339`,
   * `kube-csr-signer_@1627982337`), ends later and is still valid: an old CA kept beside its
   * successor until it expires, as rotated bundles do.
   */
  superseded: boolean;
  file: string;
  object: { kind: string; namespace: string; name: string };
}

const PUBLIC_SECRET_KEYS = new Set(['tls.crt', 'ca.crt', 'service-ca.crt']);
const PEM = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
/** Certificates per data key read at most (a trust bundle holds about 140). */
const MAX_CERTS = 500;
const DAY = 86_400_000;
/** A bundle of this many certificates, nearly all self-signed, is an OS root store (the RHEL one holds about 140). */
const ROOT_STORE_MIN = 50;

const METADATA_PICK: Pick = { apiVersion: true, kind: true, type: true, metadata: { name: true, namespace: true, annotations: true, labels: true, ownerReferences: true } };
const PICK: Pick = (() => {
  const item: Pick = { ...METADATA_PICK, data: true };
  return { ...item, items: item };
})();

/**
 * `-----BEGIN CERTIFICATE-----` as a Secret's base64 holds it, at each of the three alignments
 * it can start at (a `tls.crt` may open with `Bag Attributes` lines before its first block):
 * the characters that depend on the header alone.
 */
const PEM_HEADER = '-----BEGIN CERTIFICATE-----';
const BASE64_HEADERS = [0, 1, 2].map((offset) => {
  const encoded = Buffer.from('\0'.repeat(offset) + PEM_HEADER).toString('base64');
  const firstWhole = offset === 0 ? 0 : 4; // the group holding padding bytes depends on them
  return Buffer.from(encoded.slice(firstWhole, Math.floor((offset + PEM_HEADER.length) / 3) * 4));
});
const PEM_HEADERS = [Buffer.from(PEM_HEADER)];

/**
 * Whether an object's bytes may hold a certificate the fact keeps: a PEM block (a Secret's in
 * base64), in an object that is neither a copy of the network operator's trust bundle nor a
 * service account's token Secret (both skipped by `certificateBundles` once parsed, told here
 * from the object's own lines: its top-level keys `margin` spaces in, two for a List's item).
 * oc writes keys in order, `data` first and `metadata`, `type` last: the marks are looked for
 * from the end, the certificate from the start.
 */
function worthParsing(bytes: Buffer, resource: string, margin: number): boolean {
  const headers = resource === 'secrets' ? BASE64_HEADERS : PEM_HEADERS;
  if (!headers.some((header) => bytes.includes(header))) return false;
  return !marksAt(margin).some((mark) => bytes.lastIndexOf(mark) >= 0);
}

/** The lines that mark an object `worthParsing` skips, with its top-level keys `margin` spaces in (made once per margin). */
const MARKS = new Map<number, Buffer[]>();
function marksAt(margin: number): Buffer[] {
  let marks = MARKS.get(margin);
  if (!marks) {
    const indent = ' '.repeat(margin);
    marks = [
      `\n${indent}type: kubernetes.io/service-account-token`,
      `\n${indent}type: "kubernetes.io/service-account-token"`,
      `\n${indent}    config.openshift.io/inject-trusted-cabundle:`,
      `\n${indent}    "config.openshift.io/inject-trusted-cabundle":`,
    ].map((mark) => Buffer.from(mark));
    MARKS.set(margin, marks);
  }
  return marks;
}

type Record_ = { key: string; bundle: CertificateBundle } | { read: true };

/** The certificates of one data value. */
interface ValueCertificates {
  certs: CertificateInfo[];
  /** PEM blocks that did not parse. */
  unreadable: number;
}

/**
 * Certificates read once per text: the platform copies its bundles into every namespace, and
 * bundles share certificates (a CA in its own ConfigMap and in the bundles that trust it).
 */
export class CertificateReader {
  private readonly values = new Map<string, ValueCertificates>();
  private readonly pems = new Map<string, CertificateInfo | undefined>();

  /** The certificates of a value's PEM blocks (at most `MAX_CERTS`). */
  read(text: string): ValueCertificates {
    let value = this.values.get(text);
    if (!value) {
      value = { certs: [], unreadable: 0 };
      for (const pem of (text.match(PEM) ?? []).slice(0, MAX_CERTS)) {
        if (!this.pems.has(pem)) this.pems.set(pem, parseCertificate(pem));
        const cert = this.pems.get(pem);
        if (cert) value.certs.push(cert);
        else value.unreadable++;
      }
      this.values.set(text, value);
    }
    return value;
  }
}

/** ConfigMaps and Secrets, read for their certificates. */
export class CertificateCollector extends RecordingConsumer<Record_> {
  private readonly bundles = new Map<string, CertificateBundle>();
  private read = false;
  private readonly reader = new CertificateReader();
  /** A ConfigMap's `data` by its text: the copies of a bundle in every namespace differ only in their metadata. */
  private readonly data = new Map<string, unknown>();

  /** The items of the file being read, as its bytes stream by. */
  private items: { entry: ClassifiedEntry; stream: ListItemStream } | undefined;

  // Read as text, not as objects: most of these files' bytes are copies of the same bundles
  // (the network operator's trust bundle in dozens of namespaces, the CAs in every service
  // account's token Secret), and an item is parsed only when its text may hold a certificate
  // the fact keeps (see `worthParsing`); nor is a whole file ever copied.
  need(entry: ClassifiedEntry): Need | undefined {
    if (entry.kind !== 'list' && entry.kind !== 'namespaced-object') return undefined;
    if ((entry.group ?? 'core') !== 'core') return undefined;
    return entry.resource === 'configmaps' || entry.resource === 'secrets' ? { text: true, wholeText: true } : undefined;
  }

  text(chunk: Buffer, entry: ClassifiedEntry): void {
    if (this.items?.entry !== entry) this.items = { entry, stream: new ListItemStream((item) => this.item(item, entry, 2)) };
    this.items.stream.push(chunk);
  }

  endText(entry: ClassifiedEntry): void {
    this.record({ read: true });
    if (this.items?.entry !== entry) return;
    const { lastItem, whole } = this.items.stream.end();
    this.items = undefined;
    if (lastItem) this.item(lastItem, entry, 2);
    if (whole) this.item(whole, entry, 0);
  }

  /** One object's bytes (a List's item: `margin` 2), or a whole file that holds no oc List (0). */
  private item(bytes: Buffer, entry: ClassifiedEntry, margin: number): void {
    if (!worthParsing(bytes, entry.resource ?? '', margin)) return;
    const problems = new Problems();
    const objects =
      margin === 0
        ? entry.format === 'json'
          ? parseJsonTextItems(bytes.toString('utf8'), entry.path, problems)
          : parseYamlItems(bytes.toString('utf8'), entry.path, problems, { pick: PICK })
        : entry.resource === 'configmaps'
          ? this.configMapItem(bytes, entry.path, problems)
          : parseYamlItems(listItemDocument(bytes), entry.path, problems, { pick: PICK });
    for (const { object } of objects) {
      if (object.kind !== 'ConfigMap' && object.kind !== 'Secret') continue;
      for (const bundle of certificateBundles(object, entry.path, entry.namespace, this.reader)) {
        this.record({ key: `${bundle.kind}/${bundle.namespace}/${bundle.name}/${bundle.key}`, bundle });
      }
    }
  }

  /**
   * A ConfigMap List's item, its `data` parsed once per distinct text (a Secret's is its own:
   * nothing to share).
   */
  private *configMapItem(bytes: Buffer, file: string, problems: Problems): Generator<{ object: K8sObject }> {
    const cut = cutTopLevelKey(bytes, 'data', 2);
    if (!cut) {
      yield* parseYamlItems(listItemDocument(bytes), file, problems, { pick: PICK });
      return;
    }
    const text = cut.section.toString('latin1');
    if (!this.data.has(text)) {
      let data: unknown;
      for (const { object } of parseYamlItems(listItemDocument(cut.section, 0), file, problems)) data = (object as { data?: unknown }).data;
      this.data.set(text, data);
    }
    const data = this.data.get(text);
    for (const { object } of parseYamlItems(listItemDocument(cut.rest), file, problems, { pick: METADATA_PICK })) yield { object: { ...object, data } as K8sObject };
  }

  protected add(record: Record_): void {
    if ('read' in record) this.read = true;
    // Its certificates' fields are Node's own strings, shared between the bundle's copies: only the bundle's own are detached.
    else this.bundles.set(record.key, { ...detachData({ ...record.bundle, certs: [] }), certs: record.bundle.certs });
  }

  /** Undefined when the archive held no ConfigMap or Secret at all. */
  result(): CertificateBundle[] | undefined {
    if (!this.read) return undefined;
    return [...this.bundles.values()].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  }
}

/** The PEM certificates of one ConfigMap or Secret, one bundle per data key. */
export function certificateBundles(
  object: K8sObject,
  file: string,
  namespace?: string,
  reader: CertificateReader = new CertificateReader(),
): CertificateBundle[] {
  const data = (object as { data?: unknown }).data;
  if (!isRecord(data)) return [];
  const kind = object.kind === 'Secret' ? 'Secret' : 'ConfigMap';
  const type = kind === 'Secret' ? stringAt(object, 'type') : undefined;
  // A service account's token Secret holds copies of kube-root-ca.crt and the service CA, both read
  // as ConfigMaps: a namespace has dozens of them, nine in ten of a must-gather's Secret bytes.
  if (type === 'kubernetes.io/service-account-token') return [];
  const out: CertificateBundle[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') continue;
    let text = value;
    if (kind === 'Secret') {
      if (!PUBLIC_SECRET_KEYS.has(key)) continue;
      text = Buffer.from(value, 'base64').toString('latin1');
    }
    if (!text.includes('-----BEGIN CERTIFICATE-----')) continue;
    const rotation = rotationOf(object, kind);
    // The network operator's bundle (the OS's public roots and the proxy's CA), copied into every
    // namespace that asks for it: the copies are not read (the proxy's CA is read in openshift-config).
    if (rotation === 'trusted-ca-injection') continue;
    const { certs, unreadable } = reader.read(text);
    if (certs.length === 0 && unreadable === 0) continue;
    out.push({
      kind,
      namespace: object.metadata?.namespace ?? namespace ?? '',
      name: object.metadata?.name ?? '',
      key,
      type,
      rotation: certs.length >= ROOT_STORE_MIN && certs.filter((c) => c.subject === c.issuer).length >= 0.9 * certs.length ? 'trusted-ca-injection' : rotation,
      certs,
      unreadable,
      file,
    });
  }
  return out;
}

function parseCertificate(pem: string): CertificateInfo | undefined {
  const fields = readCertificateFields(pem);
  if (fields) return { ...fields, subject: oneLine(fields.subject), issuer: oneLine(fields.issuer) };
  try {
    const cert = new X509Certificate(pem);
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    if (!Number.isFinite(notBefore) || !Number.isFinite(notAfter)) return undefined;
    return { subject: oneLine(cert.subject), issuer: oneLine(cert.issuer), notBefore, notAfter, ca: cert.ca };
  } catch {
    return undefined;
  }
}

/** `C=US\nO=x\nCN=y` as `CN=y, O=x, C=US` (the most specific part first, as openssl prints the other way). */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).reverse().join(', ');
}

function rotationOf(object: K8sObject, kind: string): CertificateRotation {
  const annotations = object.metadata?.annotations ?? {};
  const labels = object.metadata?.labels ?? {};
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace ?? '';
  const owners = arrayAt(object.metadata, 'ownerReferences');
  if (owners.some((o) => stringAt(o, 'kind') === 'ConfigMap' && /^revision-status-\d+$/.test(stringAt(o, 'name') ?? ''))) return 'static-pod-revision';
  if ('auth.openshift.io/certificate-not-after' in annotations) return 'certrotation';
  if (
    'service.beta.openshift.io/originating-service-name' in annotations ||
    'service.alpha.openshift.io/originating-service-name' in annotations ||
    'service.beta.openshift.io/inject-cabundle' in annotations ||
    'service.alpha.openshift.io/inject-cabundle' in annotations ||
    (kind === 'ConfigMap' && name === 'openshift-service-ca.crt')
  ) {
    return 'service-ca';
  }
  if ('config.openshift.io/inject-trusted-cabundle' in labels || (namespace === 'openshift-config-managed' && name === 'trusted-ca-bundle')) return 'trusted-ca-injection';
  if (kind === 'ConfigMap' && name === 'kube-root-ca.crt') return 'kube-root-ca';
  return '';
}

/** A subject without the `@<unix time>` a rotated signer's common name ends with. */
function signerLineage(subject: string): string {
  return subject.replace(/_?@\d{9,}/g, '');
}

/** One item per certificate, judged at the collection time. */
export function certificateItems(bundles: readonly CertificateBundle[], collectedAt: number): CertificateItem[] {
  const items: CertificateItem[] = [];
  for (const bundle of bundles) {
    const lineages = bundle.certs.map((cert) => signerLineage(cert.subject));
    bundle.certs.forEach((cert, index) => {
      const expired = cert.notAfter <= collectedAt;
      const superseded = bundle.certs.some((other, at) => lineages[at] === lineages[index] && other.notAfter > cert.notAfter && other.notAfter > collectedAt);
      items.push({
        kind: bundle.kind,
        namespace: bundle.namespace,
        name: bundle.name,
        key: bundle.key,
        type: bundle.type ?? '',
        rotation: bundle.rotation,
        index,
        count: bundle.certs.length,
        subject: cert.subject,
        issuer: cert.issuer,
        ca: cert.ca,
        notBefore: new Date(cert.notBefore).toISOString(),
        notAfter: new Date(cert.notAfter).toISOString(),
        daysLeft: Math.round(((cert.notAfter - collectedAt) / DAY) * 10) / 10,
        validityDays: Math.round(((cert.notAfter - cert.notBefore) / DAY) * 10) / 10,
        expired,
        superseded,
        file: bundle.file,
        object: { kind: bundle.kind, namespace: bundle.namespace, name: bundle.name },
      });
    });
  }
  return items;
}
