export type {
  ClassifiedEntry,
  EntryFormat,
  EntryKind,
  LayoutKind,
  LogStream,
} from './types.js';
export {
  CAPTURE_FIELDS,
  GATHER_EXTRA_LISTS,
  LAYOUT_TABLE,
  type CaptureField,
  type Evidence,
  type GroupResource,
  type LayoutRule,
  type RowConstants,
} from './table.js';
export {
  MAX_PATH_LENGTH,
  TOO_LONG_RULE,
  UNMATCHED_RULE,
  LayoutDetector,
  classifyPath,
  detectLayout,
  detectLayoutReport,
  findRoots,
  ruleOf,
  type GatherRoot,
  type LayoutReport,
  type MarkerFolder,
  type RootLayout,
} from './classify.js';
