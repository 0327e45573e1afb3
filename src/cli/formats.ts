import type { Report } from '../report/model.js';
import type { Severity } from '../engine/findings.js';
import { renderJson } from '../report/json.js';
import { renderHtml } from '../report/html.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderJunit } from '../report/junit.js';
import { renderDiagnosisText } from '../report/diagnosis.js';

/** `text` is the diagnosis alone, for a terminal. */
export const FORMATS = ['html', 'json', 'md', 'junit', 'text'] as const;
export type Format = (typeof FORMATS)[number];

export function renderReport(report: Report, format: Format, failOn: Severity): string {
  switch (format) {
    case 'html':
      return renderHtml(report);
    case 'json':
      return renderJson(report);
    case 'md':
      return renderMarkdown(report);
    case 'junit':
      return renderJunit(report, failOn);
    case 'text':
      return renderDiagnosisText(report);
  }
}
