import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { EMBEDDED } from './assets.js';

/** A Handlebars environment (the package's, or one made by its `create()`). */
export type HandlebarsEnvironment = typeof Handlebars;

/**
 * Handlebars with its compiler, loaded at the first template compiled from its text: with its
 * parser, code generator and source maps it costs about 20 ms to load, and an analysis by the
 * built-in pack with a JSON report compiles no template (they were compiled at build time).
 * The single-file bundle is CommonJS: esbuild bundles the plain `require`, which runs there.
 */
export function handlebarsCompiler(): HandlebarsEnvironment {
  return (EMBEDDED ? require('handlebars') : createRequire(import.meta.url)('handlebars')) as HandlebarsEnvironment;
}

/** Handlebars' runtime alone: what a template compiled ahead of time needs (`template(spec)`). */
export function handlebarsRuntime(): HandlebarsEnvironment {
  return (EMBEDDED ? require('handlebars/runtime.js') : createRequire(import.meta.url)('handlebars/runtime.js')) as HandlebarsEnvironment;
}
