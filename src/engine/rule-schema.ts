import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { EMBEDDED, packageText } from '../core/assets.js';
import type { PathProblem } from './rule-source.js';

/** The schema of the pack's files, shipped with the built-in pack. */
export const RULE_SCHEMA = 'rules/schema.json';

/** What a pack file is: a rule, or a file of shared signals (the schema's `$defs` of each). */
export type PackFileKind = 'rule' | 'sharedSignalsFile';

type Validator = ((document: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validators: Record<PackFileKind, Validator> | undefined;

/** The schema's complaints about a document, each at its path. */
export function schemaProblems(kind: PackFileKind, document: unknown): PathProblem[] {
  validators ??= compiledValidators();
  const validate = validators[kind];
  if (validate(document)) return [];
  return (validate.errors ?? [])
    // A signal is checked as `signalRef` if it has `use`, else as `signalBody`: the errors of
    // the branch say what is wrong; the `if` keyword's own "must match else schema" says nothing more.
    .filter((error) => error.keyword !== 'if')
    .map((error) => {
      const path = error.instancePath.split('/').filter(Boolean);
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      return { path: extra ? [...path, extra] : path, reason: `${error.instancePath || (kind === 'rule' ? '(rule)' : '(file)')} ${error.message ?? 'is invalid'}${extra ? `: '${extra}'` : ''}` };
    });
}

/**
 * The schema's validators: the ones `npm run build` compiled ahead of time
 * (scripts/rule-validator.mjs, about 70 ms of start-up saved) when they were made from this very
 * schema, else compiled here.
 */
function compiledValidators(): Record<PackFileKind, Validator> {
  const text = packageText(RULE_SCHEMA);
  if (!EMBEDDED) {
    try {
      const built = createRequire(import.meta.url)('./rule-validator.cjs') as Record<PackFileKind, Validator> & { schemaHash?: string };
      if (built.schemaHash === createHash('sha256').update(text).digest('hex')) return built;
    } catch {
      // Not built (a build by tsc alone): compiled below.
    }
  }
  // ajv itself is loaded only here (about 40 ms of start-up otherwise). The single-file bundle is
  // CommonJS: esbuild bundles the plain `require`, which runs there.
  const { Ajv2020 } = (EMBEDDED ? require('ajv/dist/2020.js') : createRequire(import.meta.url)('ajv/dist/2020.js')) as typeof import('ajv/dist/2020.js');
  const schema = JSON.parse(text) as { $id: string };
  const ajv = new Ajv2020({ allErrors: true, strict: false }).addSchema(schema);
  const get = (kind: PackFileKind): Validator => {
    const validate = ajv.getSchema(`${schema.$id}#/$defs/${kind}`);
    if (!validate) throw new Error(`${RULE_SCHEMA} has no $defs/${kind}`);
    return validate;
  };
  return { rule: get('rule'), sharedSignalsFile: get('sharedSignalsFile') };
}
