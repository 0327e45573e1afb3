/**
 * The risks that apply, as rules read them (facts `risks.current` and `risks.taken`): flat
 * fields a template or CEL expression can use without walking the report's nested shape.
 * Out of the current version, one item per risk (a risk usually spans many target versions);
 * in the history, one item per transition and risk.
 */
import type { EdgeRisks, TakenEdge } from './update-risks.js';
import type { RiskVerdict } from './evaluate.js';

export interface AppliedRisk {
  name: string;
  from: string;
  /** The newest target version; `targets` lists them all. */
  to: string;
  targets: string[];
  url?: string | undefined;
  message?: string | undefined;
  reason: string;
  /** One of the edges is the update in progress. */
  inProgress: boolean;
  /** Transition start and end (epoch ms), for an edge in the history. */
  started?: number | undefined;
  completed?: number | undefined;
  state?: string | undefined;
  /** For an edge in the history: it is the newest transition. */
  latest?: boolean | undefined;
  /** The blocked-edges file that declares it. */
  dataFile: string;
  /** Archive file the verdict rests on (its first sample's source, else the ClusterVersion). */
  file: string;
}

/** Applying risks of the edges out of the current version, one item per risk name. */
export function currentRiskItems(targets: readonly EdgeRisks[], clusterVersionFile: string | undefined): AppliedRisk[] {
  const byName = new Map<string, AppliedRisk>();
  for (const edge of targets) {
    for (const risk of edge.risks) {
      if (risk.verdict !== 'applies') continue;
      const item = byName.get(risk.name);
      if (item) {
        item.targets.push(edge.to);
        item.to = edge.to;
        item.inProgress ||= edge.inProgress;
      } else {
        byName.set(risk.name, itemOf(risk, edge, clusterVersionFile));
      }
    }
  }
  return [...byName.values()];
}

/** Applying risks of the updates the cluster took, one item per transition and risk. */
export function takenRiskItems(taken: readonly TakenEdge[], clusterVersionFile: string | undefined): AppliedRisk[] {
  return taken.flatMap((edge) =>
    edge.risks
      .filter((risk) => risk.verdict === 'applies')
      .map((risk) => ({ ...itemOf(risk, edge, clusterVersionFile), started: edge.started, completed: edge.completed, state: edge.state, latest: edge.latest })),
  );
}

function itemOf(risk: RiskVerdict, edge: EdgeRisks, clusterVersionFile: string | undefined): AppliedRisk {
  return {
    name: risk.name,
    from: edge.from,
    to: edge.to,
    targets: [edge.to],
    url: risk.url,
    message: risk.message,
    reason: risk.reason,
    inProgress: edge.inProgress,
    dataFile: risk.file,
    file: risk.evidence[0]?.sources[0] ?? clusterVersionFile ?? '',
  };
}
