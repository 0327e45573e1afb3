/**
 * The etcd cluster as must-gather's `gather_etcd` saw it: `etcd_info/member_list.json`,
 * `endpoint_health.json`, `endpoint_status.json` and `alarm_list.json` (`etcdctl … -w json`).
 *
 * Member ids are 64-bit integers, beyond what a JavaScript number holds exactly: they are read
 * as the digits written, so a member, the leader and an alarm's member match by id.
 *
 * An endpoint whose URL is `unixs://…` is the member's local socket (clientURLs of 4.8-era
 * members list it): `etcdctl --cluster` in the gather pod cannot reach it and times out, which
 * says nothing of the member's health. Such endpoints are kept, marked `local`, and left out of
 * the health counts.
 */
import { arrayAt, isRecord, recordAt, stringAt } from './internal.js';

export interface EtcdMember {
  /** The member id as written (decimal digits). */
  id: string;
  name: string;
  peerURLs: string[];
  clientURLs: string[];
  /** From endpoint_status: the member the others follow. */
  leader?: boolean | undefined;
  /** etcd server version (endpoint_status). */
  version?: string | undefined;
  /** Bytes (endpoint_status `dbSize`, `dbSizeInUse`). */
  dbSize?: number | undefined;
  dbSizeInUse?: number | undefined;
}

export interface EtcdEndpointHealth {
  endpoint: string;
  healthy: boolean;
  /** `took` as etcdctl wrote it (`22.086528ms`). */
  took?: string | undefined;
  error?: string | undefined;
  /** The member whose client URL this is. */
  member?: string | undefined;
  /** A `unixs://` socket, unreachable from the gather pod whatever the member's health. */
  local: boolean;
}

export interface EtcdAlarm {
  /** `NOSPACE`, `CORRUPT`. */
  alarm: string;
  memberId: string;
  member?: string | undefined;
}

export interface EtcdInfo {
  /** Which of the four files the folder held. */
  files: string[];
  members: EtcdMember[];
  health: EtcdEndpointHealth[];
  alarms: EtcdAlarm[];
  /** Files that did not parse, with why. */
  unreadable: { file: string; reason: string }[];
}

/** Quotes integers too long for a number so their digits survive `JSON.parse` (ids, revisions). */
function parseWithBigIds(text: string): unknown {
  return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function numberAt(obj: unknown, key: string): number | undefined {
  const value = isRecord(obj) ? obj[key] : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function strings(list: readonly unknown[]): string[] {
  return list.filter((v): v is string => typeof v === 'string');
}

/** The etcd files of one `etcd_info/` folder, by name; undefined when there were none. */
export function etcdInfo(files: Record<string, string> | undefined): EtcdInfo | undefined {
  if (files === undefined) return undefined;
  const unreadable: EtcdInfo['unreadable'] = [];
  const read = (name: string): unknown => {
    const text = files[name];
    if (text === undefined || text.trim() === '') return undefined;
    try {
      return parseWithBigIds(text);
    } catch (err) {
      unreadable.push({ file: name, reason: `not JSON: ${(err as Error).message}` });
      return undefined;
    }
  };
  const members: EtcdMember[] = arrayAt(read('member_list.json'), 'members').flatMap((m) => {
    const id = idText(isRecord(m) ? m['ID'] : undefined);
    if (id === undefined) return [];
    return [{ id, name: stringAt(m, 'name') ?? id, peerURLs: strings(arrayAt(m, 'peerURLs')), clientURLs: strings(arrayAt(m, 'clientURLs')) }];
  });
  const byId = new Map(members.map((m) => [m.id, m]));
  const byUrl = new Map(members.flatMap((m) => m.clientURLs.map((url) => [url, m.name] as const)));
  const status = read('endpoint_status.json');
  for (const entry of Array.isArray(status) ? status : []) {
    const s = recordAt(entry, 'Status');
    const id = idText(recordAt(s, 'header')?.['member_id']);
    const member = id === undefined ? undefined : byId.get(id);
    if (member === undefined) continue;
    member.leader = idText(s?.['leader']) === id;
    member.version = stringAt(s, 'version');
    member.dbSize = numberAt(s, 'dbSize');
    member.dbSizeInUse = numberAt(s, 'dbSizeInUse');
  }
  const healthList = read('endpoint_health.json');
  const health: EtcdEndpointHealth[] = (Array.isArray(healthList) ? healthList : []).flatMap((h) => {
    const endpoint = stringAt(h, 'endpoint');
    if (endpoint === undefined) return [];
    return [
      {
        endpoint,
        healthy: isRecord(h) && h['health'] === true,
        took: stringAt(h, 'took'),
        error: stringAt(h, 'error'),
        member: byUrl.get(endpoint),
        local: endpoint.startsWith('unixs://') || endpoint.startsWith('unix://'),
      },
    ];
  });
  const alarms: EtcdAlarm[] = arrayAt(read('alarm_list.json'), 'alarms').flatMap((a) => {
    const alarm = stringAt(a, 'alarm');
    const memberId = idText(isRecord(a) ? a['memberID'] : undefined) ?? '';
    if (alarm === undefined || alarm === 'NONE') return [];
    return [{ alarm, memberId, member: byId.get(memberId)?.name }];
  });
  return { files: Object.keys(files).sort(), members, health, alarms, unreadable };
}
