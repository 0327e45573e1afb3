import { Command, Option } from 'commander';
import { analyzeInput } from '../analysis/analyze.js';
import { iso } from '../analysis/inspect.js';
import { formatUtc, parseTime } from '../report/common.js';
import { renderTimelineMarkdown } from '../report/markdown.js';
import { collectTimeline, filterTimeline, FULL_SCOPE, isInstallNoise, PROBLEMS_SCOPE, type TimelineFilter } from '../report/timeline-items.js';
import type { TimelineItem } from '../report/model.js';
import { TIMELINE_LANES } from '../report/common.js';
import { renderTimelineJson, renderTimelineText, type TimelineDoc } from '../report/timeline-table.js';
import { addLimitOptions, addThreadsOption } from './common.js';
import { collectList, collectRepeated, limitsFrom, threadsFrom, timeBound, UsageError, type LimitFlags } from './options.js';
import { expandInputs } from '../analysis/inputs.js';
import { loadRulesOrFail } from './rule-selection.js';

const TIMELINE_FORMATS = ['text', 'md', 'json'] as const;
type TimelineFormat = (typeof TIMELINE_FORMATS)[number];

interface TimelineFlags extends LimitFlags {
  since?: string;
  until?: string;
  namespace?: string;
  lane?: string[];
  problems?: boolean;
  includeInstall?: boolean;
  format: TimelineFormat;
  /** Folders of user rules; `false` with --no-rules. */
  rules?: string[] | false;
  threads?: string;
}

export function timelineCommand(): Command {
  return addThreadsOption(addLimitOptions(
    new Command('timeline')
      .description('print one timeline across sources: update history, CVO pods, ClusterOperator conditions, node readiness, events, findings')
      .argument('<input>', 'directory, archive (.tar, .tar.gz, .tar.xz, .zip) or log file')
      .option('--since <time>', 'only items reaching this time: ISO 8601, or a duration before the collection time (2h, 90m, 1d12h)')
      .option('--until <time>', 'only items starting by this time: ISO 8601, or a duration before the collection time')
      .option('--namespace <ns>', 'only items of this namespace (events, CVO pods, findings on namespaced objects)')
      .option('--lane <lanes>', `only these lanes, comma-separated or repeated: ${TIMELINE_LANES.join(', ')}`, collectList)
      .option('--problems', 'problems only: Warning events, conditions going bad (operator Degraded or not Available, node not Ready), updates not completed, CVO lease and final-sync losses, firing alerts the rule pack takes as problems (firing warning/critical ones with --no-rules), findings at warning and above; the install is kept as a history row, and what began during it and settled soon after is left out (counted)')
      .option('--include-install', 'with --problems: keep what began during the install and settled soon after')
      .addOption(new Option('--format <format>', 'output format').choices([...TIMELINE_FORMATS]).default('text'))
      .option('--rules <dir>', 'add a folder of rules to the built-in pack (for the finding lane); repeat for more', collectRepeated)
      .option('--no-rules', 'skip the rule pack: no finding lane'),
  )).action(async (given: string, flags: TimelineFlags) => {
    const limits = limitsFrom(flags);
    const threads = threadsFrom(flags.threads);
    for (const lane of flags.lane ?? []) {
      if (!(TIMELINE_LANES as readonly string[]).includes(lane)) throw new UsageError(`--lane: no lane '${lane}' (use ${TIMELINE_LANES.join(', ')})`);
    }
    // A folder of archives holds several clusters' times: one timeline each, never one across them.
    const expansion = await expandInputs([given]);
    if (expansion.inputs.length > 1) {
      throw new UsageError(`${given} is a folder of ${expansion.inputs.length} archives; a timeline is of one: ${expansion.inputs.join(', ')}`);
    }
    const input = expansion.inputs[0] ?? given;
    const ruleDirs = flags.rules === false ? [] : (flags.rules ?? []);
    const rules = flags.rules === false ? undefined : (await loadRulesOrFail(ruleDirs)).rules;
    const ruleSource = rules ? { dirs: ruleDirs, ids: rules.map((rule) => rule.id) } : undefined;
    const analysis = await analyzeInput(input, { limits, rules, threads, ruleSource });
    const scope = flags.problems === true ? { ...PROBLEMS_SCOPE, rules, includeInstall: flags.includeInstall === true } : FULL_SCOPE;
    const { items, omitted } = collectTimeline(analysis, scope);
    const collected = analysis.facts.collectedAt;
    // Durations count back from the collection time, or from the latest time seen without one.
    const anchor = collected ?? latestTime(items.map((item) => item.end ?? item.start));
    const filter: TimelineFilter = {
      since: flags.since !== undefined ? timeBound('--since', flags.since, anchor) : undefined,
      until: flags.until !== undefined ? timeBound('--until', flags.until, anchor) : undefined,
      namespace: flags.namespace,
      lanes: flags.lane,
    };
    const shown = filterTimeline(items, filter, collected);
    const doc: TimelineDoc = {
      input,
      collectedAt: iso(collected),
      items: shown,
      omitted,
      filters: describeFilters(flags),
      notes: flags.problems === true ? quietNote(shown, analysis.facts.history?.install?.completionTime, flags) : [],
    };
    if (collected === undefined && anchor !== undefined && (flags.since !== undefined || flags.until !== undefined)) {
      doc.filters.push(`no collection time: durations count back from the latest time seen, ${formatUtc(anchor)}`);
    }
    const render = { text: renderTimelineText, md: renderTimelineMarkdown, json: renderTimelineJson }[flags.format];
    process.stdout.write(render(doc));
  });
}

function latestTime(times: readonly string[]): number | undefined {
  let latest: number | undefined;
  for (const time of times) {
    const ms = parseTime(time);
    if (ms !== undefined && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}

/**
 * `--problems` with nothing after the install but the install's own noise: said in so many words
 * (the list alone would read as a list of problems).
 */
function quietNote(items: readonly TimelineItem[], installed: number | undefined, flags: TimelineFlags): string[] {
  if (items.some((item) => item.lane !== 'history' && !isInstallNoise(item, installed))) return [];
  const narrowed = flags.since !== undefined || flags.until !== undefined || flags.namespace !== undefined || flags.lane !== undefined ? ' (within the filters above)' : '';
  return [installed !== undefined ? `No problem after the install completed at ${formatUtc(installed)}${narrowed}.` : `No problem in the timeline${narrowed}.`];
}

function describeFilters(flags: TimelineFlags): string[] {
  const out: string[] = [];
  if (flags.since !== undefined) out.push(`since ${flags.since}`);
  if (flags.until !== undefined) out.push(`until ${flags.until}`);
  if (flags.namespace !== undefined) out.push(`namespace ${flags.namespace}`);
  if (flags.lane !== undefined) out.push(`lanes ${flags.lane.join(' ')}`);
  if (flags.problems === true) out.push(flags.includeInstall === true ? 'problems only, install included' : 'problems only');
  if (flags.rules === false) out.push('no rules');
  return out;
}
