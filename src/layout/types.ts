/** What an entry is, from its path alone (no byte read). */
export type EntryKind =
  | 'cluster-object'
  | 'namespaced-object'
  | 'list'
  | 'pod-log'
  | 'host-log'
  | 'audit-log'
  | 'metadata'
  | 'other';

/** The shape of the whole input, decided from the paths it holds. */
export type LayoutKind = 'must-gather' | 'inspect' | 'gather-extra' | 'bare-log' | 'unknown';

export type LogStream = 'current' | 'previous' | 'rotated';

export type EntryFormat = 'yaml' | 'json' | 'text';

export interface ClassifiedEntry {
  kind: EntryKind;
  /** Path inside the input. */
  path: string;
  format: EntryFormat;
  /** Which layout table row matched (stable name, for debugging and tests). */
  rule: string;
  /** Prefix of `path` up to the must-gather image folder (or the inspect root), if any. */
  root?: string | undefined;
  namespace?: string | undefined;
  /** API group as the folder names it (`core` for the legacy group, `config.openshift.io`, ...). */
  group?: string | undefined;
  /** Plural resource (`pods`, `clusteroperators`, `events`). */
  resource?: string | undefined;
  /** Object name for single-object files. */
  name?: string | undefined;
  pod?: string | undefined;
  container?: string | undefined;
  logStream?: LogStream | undefined;
  /** Node or role a host log belongs to (`masters`, a node name). */
  node?: string | undefined;
  /** Host service or file the host log came from (`kubelet`, `crio`, ...). */
  service?: string | undefined;
  metadata?: 'timestamp' | 'version' | undefined;
}
