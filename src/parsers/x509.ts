/**
 * The few fields of a PEM certificate the certificates fact keeps, read from its DER in place:
 * subject and issuer as Node's `X509Certificate` prints them, validity, and whether it is a CA
 * as Node's `ca` tells (OpenSSL's `X509_check_ca(cert) == 1`). Node's reader costs about 175 µs a
 * certificate (40–46 ms of every real must-gather, which holds about 240); this one a few.
 *
 * It reads the certificates OpenShift writes (RFC 5280 DER, names of single-valued CN, O, OU, C,
 * L, ST, serialNumber and emailAddress in printable ASCII, UTCTime or GeneralizedTime to the
 * second) and says `undefined` for anything else, which the caller reads with Node's: one reader
 * decides every field it gives.
 */

export interface CertificateFields {
  subject: string;
  issuer: string;
  /** Epoch ms. */
  notBefore: number;
  notAfter: number;
  ca: boolean;
}

const SEQUENCE = 0x30;
const SET = 0x31;
const OID = 0x06;
const BOOLEAN = 0x01;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OCTET_STRING = 0x04;
const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;
const VERSION_TAG = 0xa0;
const ISSUER_UID_TAG = 0x81;
const SUBJECT_UID_TAG = 0x82;
const EXTENSIONS_TAG = 0xa3;
/** Value types printed as they are: PrintableString, UTF8String, IA5String (ASCII only, below). */
const PLAIN_STRINGS = new Set([0x13, 0x0c, 0x16]);

/** Attribute types by their DER-encoded OID, with OpenSSL's short names. */
const SHORT_NAMES = new Map<string, string>([
  ['550403', 'CN'],
  ['550406', 'C'],
  ['550407', 'L'],
  ['550408', 'ST'],
  ['55040a', 'O'],
  ['55040b', 'OU'],
  ['550405', 'serialNumber'],
  ['2a864886f70d010901', 'emailAddress'],
]);
const BASIC_CONSTRAINTS = '551d13';
const KEY_USAGE = '551d0f';
/** keyUsage's keyCertSign (bit 5: 0x04 of its first byte). */
const KEY_CERT_SIGN = 0x04;

/** The block as OpenSSL reads it without a doubt: its lines of base64 alone, the END line at a line's start. */
const PEM_BODY = /^-----BEGIN CERTIFICATE-----\r?\n((?:[A-Za-z0-9+/=]+\r?\n)+)-----END CERTIFICATE-----$/;
/** Base64 as PEM holds it once its line breaks are out: whole groups of four, padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The fields of a PEM certificate (one block, as `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----`), or undefined when this reader does not read it. */
export function readCertificateFields(pem: string): CertificateFields | undefined {
  const body = PEM_BODY.exec(pem)?.[1]?.replace(/\r?\n/g, '');
  if (body === undefined || !BASE64.test(body)) return undefined;
  try {
    return readDer(Buffer.from(body, 'base64'));
  } catch (err) {
    if (err instanceof NotRead) return undefined;
    throw err;
  }
}

class NotRead extends Error {}

function notRead(): never {
  throw new NotRead();
}

/** One DER element: its tag, where its content lies, and where the next element begins. */
interface Element {
  tag: number;
  start: number;
  end: number;
}

function elementAt(der: Buffer, at: number, limit: number): Element {
  if (at + 2 > limit) notRead();
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    // DER: the shortest form, at most 4 length bytes here.
    if (bytes === 0 || bytes > 4 || start + bytes > limit) notRead();
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    if (length < 0x80 || der[start] === 0) notRead();
    start += bytes;
  }
  const end = start + length;
  if (end > limit) notRead();
  return { tag, start, end };
}

/** The elements of a constructed element's content, in order. */
function children(der: Buffer, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const child = elementAt(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** The element, which must be there with this tag. */
function tagged(element: Element | undefined, tag: number): Element {
  if (element === undefined || element.tag !== tag) notRead();
  return element;
}

function readDer(der: Buffer): CertificateFields {
  const certificate = tagged(elementAt(der, 0, der.length), SEQUENCE);
  if (certificate.end !== der.length) notRead();
  const [tbs, signatureAlgorithm, signature, ...extra] = children(der, certificate);
  if (extra.length > 0) notRead();
  tagged(signatureAlgorithm, SEQUENCE);
  tagged(signature, BIT_STRING);
  const fields = children(der, tagged(tbs, SEQUENCE));
  let at = 0;
  if (fields[at]?.tag === VERSION_TAG) at++;
  tagged(fields[at++], INTEGER);
  tagged(fields[at++], SEQUENCE);
  const issuer = nameText(der, tagged(fields[at++], SEQUENCE));
  const [notBefore, notAfter, ...moreTimes] = children(der, tagged(fields[at++], SEQUENCE));
  if (moreTimes.length > 0) notRead();
  const subject = nameText(der, tagged(fields[at++], SEQUENCE));
  tagged(fields[at++], SEQUENCE);
  if (fields[at]?.tag === ISSUER_UID_TAG) at++;
  if (fields[at]?.tag === SUBJECT_UID_TAG) at++;
  let ca = false;
  if (fields[at]?.tag === EXTENSIONS_TAG) {
    const [list, ...more] = children(der, fields[at++]!);
    if (more.length > 0) notRead();
    ca = isCa(der, children(der, tagged(list, SEQUENCE)));
  }
  if (at !== fields.length) notRead();
  return { subject, issuer, notBefore: timeOf(der, notBefore), notAfter: timeOf(der, notAfter), ca };
}

/** A Name as Node prints it: one `SN=value` line per RDN, in the certificate's order. */
function nameText(der: Buffer, name: Element): string {
  const lines: string[] = [];
  for (const rdn of children(der, name)) {
    const attributes = children(der, tagged(rdn, SET));
    if (attributes.length !== 1) notRead();
    const [type, value, ...extra] = children(der, tagged(attributes[0], SEQUENCE));
    if (extra.length > 0 || value === undefined || !PLAIN_STRINGS.has(value.tag)) notRead();
    const short = SHORT_NAMES.get(der.toString('hex', tagged(type, OID).start, type!.end)) ?? notRead();
    lines.push(`${short}=${plainValue(der, value)}`);
  }
  return lines.join('\n');
}

/** RFC 2253's special characters, which OpenSSL prints after a backslash: `,+"\<>;`. */
const ESCAPED = /[,+"\\<>;]/g;

/** A value of printable ASCII as OpenSSL prints it (RFC 2253 escapes); one it would escape at its ends (`#` or a blank) is not read here. */
function plainValue(der: Buffer, value: Element): string {
  if (value.end === value.start) notRead();
  for (let i = value.start; i < value.end; i++) {
    const c = der[i]!;
    if (c < 0x20 || c > 0x7e) notRead();
  }
  const first = der[value.start];
  if (first === 0x23 || first === 0x20 || der[value.end - 1] === 0x20) notRead();
  return der.toString('latin1', value.start, value.end).replace(ESCAPED, '\\$&');
}

const UTC_TIME_TEXT = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;
const GENERALIZED_TIME_TEXT = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;

/** UTCTime (years 1950–2049, RFC 5280) or GeneralizedTime, to the second in UTC, as epoch ms. */
function timeOf(der: Buffer, time: Element | undefined): number {
  if (time === undefined) notRead();
  const text = der.toString('latin1', time.start, time.end);
  const parts = (time.tag === UTC_TIME ? UTC_TIME_TEXT : time.tag === GENERALIZED_TIME ? GENERALIZED_TIME_TEXT : undefined)?.exec(text) ?? notRead();
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number];
  const fullYear = time.tag === UTC_TIME ? (year < 50 ? 2000 + year : 1900 + year) : year;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) notRead();
  const ms = Date.UTC(fullYear, month - 1, day, hour, minute, second);
  // A day the month does not have (Feb 30) rolls over in Date.UTC: OpenSSL refuses it.
  if (new Date(ms).getUTCDate() !== day) notRead();
  return ms;
}

/**
 * OpenSSL's `X509_check_ca(cert) == 1`: basicConstraints with cA true, and no keyUsage without
 * keyCertSign. A certificate that names either extension twice is one OpenSSL marks invalid: not read here.
 */
function isCa(der: Buffer, extensions: readonly Element[]): boolean {
  let basicConstraints: boolean | undefined;
  let keyUsage: boolean | undefined;
  for (const extension of extensions) {
    const parts = children(der, tagged(extension, SEQUENCE));
    const id = der.toString('hex', tagged(parts[0], OID).start, parts[0]!.end);
    const valueAt = parts[1]?.tag === BOOLEAN ? 2 : 1;
    const value = tagged(parts[valueAt], OCTET_STRING);
    if (parts.length !== valueAt + 1) notRead();
    if (id === BASIC_CONSTRAINTS) {
      if (basicConstraints !== undefined) notRead();
      const inner = elementAt(der, value.start, value.end);
      if (inner.end !== value.end) notRead();
      const first = children(der, tagged(inner, SEQUENCE))[0];
      basicConstraints = first?.tag === BOOLEAN && first.end - first.start === 1 && der[first.start] !== 0;
    } else if (id === KEY_USAGE) {
      if (keyUsage !== undefined) notRead();
      const bits = tagged(elementAt(der, value.start, value.end), BIT_STRING);
      if (bits.end !== value.end || bits.end - bits.start < 1) notRead();
      keyUsage = bits.end - bits.start > 1 && (der[bits.start + 1]! & KEY_CERT_SIGN) !== 0;
    }
  }
  return basicConstraints === true && keyUsage !== false;
}
