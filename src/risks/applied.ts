/**
 * The risks that apply, one item per (edge, risk), as rules read them (facts `risks.current`
 * and `risks.taken`): flat fields a template or CEL expression can use without walking the
 * report's nested shape.
 */
import type { EdgeRisks, TakenEdge } from './update-risks.js';

export interface AppliedRisk {
  name: string;
  from: string;
  to: string;
  url?: string | undefined;
  message?: string | undefined;
  reason: string;
  /** The edge is the update in progress. */
  inProgress: boolean;
  /** Transition start (epoch ms), for an edge in the history. */
  started?: number | undefined;
  completed?: number | undefined;
  state?: string | undefined;
  /** The blocked-edges file that declares it. */
  dataFile: string;
  /** Archive file the verdict rests on (its first sample's source, else the ClusterVersion). */
  file: string;
}

export function appliedRisks(edges: readonly (EdgeRisks | TakenEdge)[], clusterVersionFile: string | undefined): AppliedRisk[] {
  return edges.flatMap((edge) =>
    edge.risks
      .filter((risk) => risk.verdict === 'applies')
      .map((risk) => ({
        name: risk.name,
        from: edge.from,
        to: edge.to,
        url: risk.url,
        message: risk.message,
        reason: risk.reason,
        inProgress: edge.inProgress,
        started: 'started' in edge ? edge.started : undefined,
        completed: 'completed' in edge ? edge.completed : undefined,
        state: 'state' in edge ? edge.state : undefined,
        dataFile: risk.file,
        file: risk.evidence[0]?.sources[0] ?? clusterVersionFile ?? '',
      })),
  );
}
