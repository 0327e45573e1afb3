/**
 * Conformance of the PromQL subset, one block per construct. Every expected result is worked
 * out by hand from the Prometheus documentation ("Querying basics", "Operators", "Functions"),
 * not by running the evaluator; the inputs are small enough to check by reading.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, parsePromql, PromqlError, EvaluationError, type MetricSource, type Sample, type Value } from '../../src/promql/index.js';

type Row = [Record<string, string>, number | undefined];

/** A source from literal rows; `gaps` names metrics whose series may be incomplete. */
function source(metrics: Record<string, Row[]>, gaps: Record<string, string> = {}): MetricSource {
  return {
    series: (name) => ({
      samples: (metrics[name] ?? []).map(([labels, value]): Sample => ({ labels, value, unknown: value === undefined ? 'unknown in test' : undefined, sources: [`test:${name}`] })),
      gap: gaps[name] !== undefined ? () => gaps[name] : metrics[name] === undefined ? () => `no ${name}` : undefined,
    }),
  };
}

const SRC = source({
  up: [
    [{ job: 'api', instance: 'a' }, 1],
    [{ job: 'api', instance: 'b' }, 0],
    [{ job: 'db', instance: 'c' }, 1],
  ],
  load: [
    [{ job: 'api', instance: 'a' }, 3],
    [{ job: 'api', instance: 'b' }, 5],
    [{ job: 'db', instance: 'c' }, 2],
  ],
  info: [[{ job: 'api', team: 'x' }, 1], [{ job: 'db', team: 'y' }, 1]],
  empty: [],
});

/** Result as sorted `labels value` lines, `__name__` shown as the metric name. */
function run(query: string, src: MetricSource = SRC): string[] {
  return lines(evaluate(parsePromql(query), src));
}

function lines(value: Value): string[] {
  if (value.kind !== 'vector') return [`${value.kind} ${value.value}`];
  return value.samples
    .map((s) => {
      const { __name__: name = '', ...rest } = s.labels;
      const labels = Object.keys(rest).sort().map((k) => `${k}="${rest[k]}"`).join(',');
      return `${name}{${labels}} ${s.value ?? '?'}`;
    })
    .sort();
}

describe('selectors (=, !=, =~, !~; regexes fully anchored; a missing label is "")', () => {
  it('=', () => expect(run('up{job="api"}')).toEqual(['up{instance="a",job="api"} 1', 'up{instance="b",job="api"} 0']));
  it('!=', () => expect(run('up{job!="api"}')).toEqual(['up{instance="c",job="db"} 1']));
  it('=~ is anchored: "a" does not match "api"', () => {
    expect(run('up{job=~"a"}')).toEqual([]);
    expect(run('up{job=~"a.*|d.*"}')).toHaveLength(3);
  });
  it('!~', () => expect(run('up{job!~"api"}')).toEqual(['up{instance="c",job="db"} 1']));
  it('a label the series lacks matches the empty string (_id="" on in-cluster series)', () => {
    expect(run('up{_id="",job="db"}')).toEqual(['up{instance="c",job="db"} 1']);
    expect(run('up{_id!=""}')).toEqual([]);
  });
});

describe('aggregations', () => {
  it('group: value 1 per group, labels only the by labels', () => {
    expect(run('group(up)')).toEqual(['{} 1']);
    expect(run('group by (job) (up)')).toEqual(['{job="api"} 1', '{job="db"} 1']);
  });
  it('count / sum / max / min by', () => {
    expect(run('count by (job) (up)')).toEqual(['{job="api"} 2', '{job="db"} 1']);
    expect(run('sum by (job) (load)')).toEqual(['{job="api"} 8', '{job="db"} 2']);
    expect(run('max(load)')).toEqual(['{} 5']);
    expect(run('min by (job) (load)')).toEqual(['{job="api"} 3', '{job="db"} 2']);
  });
  it('without drops the listed labels and the metric name', () => expect(run('sum without (instance) (load)')).toEqual(['{job="api"} 8', '{job="db"} 2']));
  it('an aggregation of nothing is nothing', () => expect(run('group(empty)')).toEqual([]));
  it('topk / bottomk keep whole samples (metric name included), per group with by', () => {
    expect(run('topk(1, load)')).toEqual(['load{instance="b",job="api"} 5']);
    expect(run('bottomk(1, load)')).toEqual(['load{instance="c",job="db"} 2']);
    expect(run('topk by (job) (1, load)')).toEqual(['load{instance="b",job="api"} 5', 'load{instance="c",job="db"} 2']);
  });
});

describe('label_replace', () => {
  it('adds a label when the (anchored) regex matches the source label; "" source and "" regex always match', () => {
    expect(run('label_replace(info, "who", "team-$1", "team", "(.*)")')).toEqual(['info{job="api",team="x",who="team-x"} 1', 'info{job="db",team="y",who="team-y"} 1']);
    expect(run('label_replace(group(info), "born", "yes", "", "")')).toEqual(['{born="yes"} 1']);
  });
  it('leaves the sample unchanged when the regex does not match', () => expect(run('label_replace(info, "who", "z", "team", "q")')).toHaveLength(2));
  it('an empty replacement removes the label', () => expect(run('label_replace(info, "team", "", "team", "x")')).toContain('info{job="api"} 1'));
});

describe('set operators', () => {
  it('or adds right-hand samples whose label set (without the name) the left lacks', () => {
    expect(run('group by (job) (up{job="api"}) or group by (job) (up)')).toEqual(['{job="api"} 1', '{job="db"} 1']);
    expect(run('group(up{job="x"}) or 0 * group(up)')).toEqual(['{} 0']);
  });
  it('or on () takes the right side only when the left is empty', () => {
    expect(run('group by (job) (up{job="db"}) or on () 0 * group by (instance) (up)')).toEqual(['{job="db"} 1']);
    expect(run('group by (job) (up{job="x"}) or on () group by (instance) (up)')).toHaveLength(3);
  });
  it('and keeps left samples with a match on the right; unless those without', () => {
    expect(run('up and on (job) info{team="y"}')).toEqual(['up{instance="c",job="db"} 1']);
    expect(run('up unless on (job) info{team="y"}')).toEqual(['up{instance="a",job="api"} 1', 'up{instance="b",job="api"} 0']);
    expect(run('up and ignoring (instance) info')).toEqual([]);
  });
});

describe('arithmetic and comparison', () => {
  it('scalar arithmetic on a vector drops the metric name; unary minus', () => {
    expect(run('0 * up{job="db"}')).toEqual(['{instance="c",job="db"} 0']);
    expect(run('-1 * group(up)')).toEqual(['{} -1']);
    expect(run('1 - max(up)')).toEqual(['{} 0']);
    expect(run('-load{job="db"}')).toEqual(['{instance="c",job="db"} -2']);
  });
  it('a comparison filters and keeps the left value and the name; bool returns 0/1 without the name', () => {
    expect(run('load > 2')).toEqual(['load{instance="a",job="api"} 3', 'load{instance="b",job="api"} 5']);
    expect(run('load == bool 2')).toEqual(['{instance="a",job="api"} 0', '{instance="b",job="api"} 0', '{instance="c",job="db"} 1']);
    expect(run('2 < load')).toEqual(['load{instance="a",job="api"} 3', 'load{instance="b",job="api"} 5']);
  });
  it('scalar with scalar', () => {
    expect(run('1 + 2 * 3')).toEqual(['scalar 7']);
    expect(run('2 > bool 1')).toEqual(['scalar 1']);
  });
  it('vector with vector matches one-to-one on all labels but the name', () => expect(run('load * up')).toEqual(['{instance="a",job="api"} 3', '{instance="b",job="api"} 0', '{instance="c",job="db"} 2']));
  it('on () group_left (labels) copies labels from the one side', () => {
    expect(run('group(up) * on () group_left (team) topk(1, info)')).toEqual(['{team="x"} 1']);
    expect(run('load * on (job) group_left (team) info')).toEqual([
      '{instance="a",job="api",team="x"} 3',
      '{instance="b",job="api",team="x"} 5',
      '{instance="c",job="db",team="y"} 2',
    ]);
  });
  it('group_right keeps the right side\'s labels', () => expect(run('info * on (job) group_right (team) load')).toContain('{instance="c",job="db",team="y"} 2'));
  it('many-to-many matching is an error, as in Prometheus', () => {
    expect(() => run('group(up) * on () info')).toThrow(EvaluationError);
    expect(() => run('load * on (job) info')).toThrow(EvaluationError);
  });
});

describe('*_over_time over an instant (the archive is one moment)', () => {
  it('max_over_time(x[1h]) is x, without the name; count_over_time is 1', () => {
    expect(run('max_over_time(load{job="db"}[1h])')).toEqual(['{instance="c",job="db"} 2']);
    expect(run('count_over_time(load{job="db"}[5m])')).toEqual(['{instance="c",job="db"} 1']);
  });
});

describe('unknowns: gaps and unknown values', () => {
  const partial = source({ objects: [[{ resource: 'nodes' }, 3], [{ resource: 'crs' }, undefined]], lacking: [] }, { lacking: 'not in the archive' });
  const vec = (q: string): Value => evaluate(parsePromql(q), partial);
  it('a selector on a metric the archive lacks carries the reason', () => {
    const v = vec('lacking');
    expect(v.kind === 'vector' && v.gaps).toEqual(['not in the archive']);
  });
  it('group() of a non-empty vector does not depend on missing series', () => {
    const v = vec('group(lacking or objects)');
    expect(v.kind === 'vector' && v.gaps).toEqual([]);
  });
  it('an unknown value compared is a gap; group() ignores values; 0 * unknown is 0', () => {
    const cmp = vec('objects{resource="crs"} > 0');
    expect(cmp.kind === 'vector' && cmp.samples.length === 0 && cmp.gaps.length === 1).toBe(true);
    expect(lines(vec('group(objects{resource="crs"})'))).toEqual(['{} 1']);
    expect(lines(vec('0 * objects{resource="crs"}'))).toEqual(['{resource="crs"} 0']);
  });
  it('or on () with a non-empty left drops the right side whatever it misses', () => {
    const v = vec('group(objects) or on () lacking');
    expect(v.kind === 'vector' && v.gaps).toEqual([]);
  });
});

describe('refused constructs are named', () => {
  for (const [query, construct] of [
    ['rate(up[5m])', 'rate()'],
    ['up offset 5m', 'offset'],
    ['max_over_time(up[1h:5m])', undefined],
    ['avg(up)', 'avg'],
    ['absent(up)', 'absent()'],
    ['{job="api"}', 'selector without metric name'],
  ] as const) {
    it(query, () => {
      let error: unknown;
      try {
        parsePromql(query);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(PromqlError);
      if (construct) expect((error as PromqlError).construct).toBe(construct);
    });
  }
  it('a syntax error is refused', () => expect(() => parsePromql('group(up')).toThrow(PromqlError));
});
