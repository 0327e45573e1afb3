/**
 * Strings and objects kept past the entry they came from. V8 makes a substring of 13 or more
 * characters a view into its parent, and the parser cuts every value from the whole file's
 * text: one event message kept for the timeline would keep its whole events.yaml alive (on a
 * 1 GB must-gather, a hundred such files at a time, and more with every namespace read).
 */

/** A copy of `text` that keeps nothing else alive (undefined stays undefined). */
export function detachString<T extends string | undefined>(text: T): T {
  // Concatenating and slicing makes V8 flatten the pair into a new string of their characters:
  // the slice is a view into that copy, not into the original's parent.
  return (text === undefined || text.length < 13 ? text : (' ' + text).slice(1)) as T;
}

/** A deep copy of plain data (a parsed object, a finding's evidence) whose strings keep nothing else alive. */
export function detachData<T>(data: T): T {
  return structuredClone(data);
}
