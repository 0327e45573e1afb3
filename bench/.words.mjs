import { loadRules } from '../dist/engine/load.js';
import { literalsRequiredBy } from '../dist/engine/cel-literals.js';
const { rules } = await loadRules([], { deferCompile: true });
const by = new Map();
for (const rule of rules) for (const s of rule.signals) if (s.type === 'resource') for (const r of s.resources) {
  const words = s.where ? literalsRequiredBy(s.where.source) : undefined;
  const k = `${s.group ?? ''}/${r}`; if (!by.has(k)) by.set(k, []); by.get(k).push(`${rule.id}:${words ? '[' + [...words].join('|').slice(0, 60) + ']' : 'NONE'}`);
}
for (const [k, v] of [...by].sort()) console.log(k, '=>', v.join('  '));
