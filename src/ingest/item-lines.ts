/**
 * Where each object of a YAML file starts, told cheaply from the text (no parser positions):
 * documents start after `---` lines, List items at `- ` lines in column 0 under `items:`,
 * which is how `oc` and must-gather write them. Unknown shapes give undefined, never a wrong
 * guess beyond the file's own structure.
 */
export function itemLines(text: string | (() => string)): (doc: number, item: number | undefined) => number | undefined {
  let index: { docs: number[]; items: number[][] } | undefined;
  return (doc, item) => {
    index ??= build(typeof text === 'string' ? text : text());
    const items = index.items[doc];
    if (item !== undefined && items && items[item] !== undefined) return items[item];
    return index.docs[doc];
  };
}

function build(text: string): { docs: number[]; items: number[][] } {
  const docs: number[] = [1];
  const items: number[][] = [[]];
  let line = 1;
  let inItems = false;
  let pos = 0;
  while (pos <= text.length) {
    const end = text.indexOf('\n', pos);
    const stop = end < 0 ? text.length : end;
    const c = text.charCodeAt(pos);
    if (c === 45 /* - */) {
      if (text.startsWith('---', pos) && (stop - pos === 3 || text.charCodeAt(pos + 3) === 32)) {
        if (line > 1) {
          docs.push(line + 1);
          items.push([]);
        } else docs[0] = 2;
        inItems = false;
      } else if (inItems && text.charCodeAt(pos + 1) === 32) {
        items[items.length - 1]!.push(line);
      }
    } else if (c === 105 /* i */ && text.startsWith('items:', pos)) {
      inItems = true;
    } else if (c !== 32 && c !== 35 && stop > pos) {
      inItems = false;
    }
    if (end < 0) break;
    pos = end + 1;
    line++;
  }
  return { docs, items };
}
