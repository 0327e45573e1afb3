import { test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderJson } from '../../src/report/json.js';
import * as fx from './fixtures.js';
test('smoke', () => {
  for (const [name, r] of Object.entries({ seed000: fx.seed000Report(), rollback: fx.rollbackReport(), healthy: fx.healthyReport(), many: fx.manyEntriesReport() })) {
    writeFileSync(`/work/main/test-output/${name}.html`, renderHtml(r));
    writeFileSync(`/work/main/test-output/${name}.md`, renderMarkdown(r));
    writeFileSync(`/work/main/test-output/${name}.xml`, renderJunit(r, 'warning'));
    writeFileSync(`/work/main/test-output/${name}.json`, renderJson(r));
  }
});
