/** Types of planted-lib.mjs, for test/planted/planted.test.ts. */
export interface PlantedCase {
  name: string;
  file: string;
  description: string;
  source: string;
  expect: 'quiet' | { root: string };
  match?: string[];
  plant: unknown[];
  quiet: boolean;
}
export interface Base {
  baseDir: string;
  inputRel: string;
  mgRel: string;
  t0: number;
  root: string;
}
export interface FindingLine {
  ruleId: string;
  severity: string;
  line: string;
  explainedBy: string[];
}
export interface CaseResult {
  name: string;
  expect: string;
  match?: string[];
  roots: { ruleId: string; severity: string; title: string; line: string }[];
  newFindings: FindingLine[];
  findings: FindingLine[];
  matchedFinding?: FindingLine;
  verdict: 'pass' | 'FAIL' | 'unjudged';
}
export const REPO: string;
export const CASES_DIR: string;
export const BASE_ARCHIVE: string;
export { sharedPath } from "./shared-data.mjs";
export function loadCases(dir?: string): PlantedCase[];
export function timeOf(expr: string, t0: number, tRep?: number): number;
export function formatTime(ms: number, format?: string): string;
export function expand(text: string, t0: number, tRep?: number): string;
export function collectionTime(root: string): number;
export function mustGatherRoot(root: string): string;
export function workRoot(): string;
export function prepareBase(options?: { archive?: string; root?: string }): Base;
export function analyze(input: string, out: string): Promise<{ findings: unknown[]; diagnosis: { roots: unknown[] } }>;
export function baseline(base: Base): Promise<{ findings: unknown[]; diagnosis: { roots: unknown[] } }>;
export function applyPlant(mg: string, plant: unknown[], t0: number): void;
export function runCase(c: PlantedCase, base: Base, options?: { keep?: boolean }): Promise<CaseResult>;
export function pool<T, R>(items: T[], limit: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]>;
