import type { Report } from '../report/model.js';
import type { Severity } from '../engine/findings.js';
import { renderJson } from '../report/json.js';
import { renderHtml } from '../report/html.js';
import { renderMarkdown, type MarkdownOptions } from '../report/markdown.js';
import { renderJunit } from '../report/junit.js';
import { renderDiagnosisText } from '../report/diagnosis.js';
import { updateNodesText } from '../report/summary.js';

/** `text` is the diagnosis for a terminal, then the nodes an update in progress has left. */
export const FORMATS = ['html', 'json', 'md', 'junit', 'text'] as const;
export type Format = (typeof FORMATS)[number];

export function renderReport(report: Report, format: Format, failOn: Severity, markdown: MarkdownOptions = {}): string {
  switch (format) {
    case 'html':
      return renderHtml(report);
    case 'json':
      return renderJson(report);
    case 'md':
      return renderMarkdown(report, markdown);
    case 'junit':
      return renderJunit(report, failOn);
    case 'text':
      return renderDiagnosisText(report) + updateNodesText(report.summary);
  }
}
