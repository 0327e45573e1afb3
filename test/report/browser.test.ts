/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Opens the seed-000 HTML report in a real Chromium (headless, via playwright-core) and checks
 * what a static check cannot: it renders, makes no request, logs no error (a CSP violation
 * would), and the archive's payloads stay text. Skipped when /usr/bin/chromium is absent (CI
 * installs it). Screenshots go to test-output/ (git-ignored).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { mgsift } from '../helpers/cli.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { renderHtml } from '../../src/report/html.js';
import { manyEntriesReport, rollbackReport, seed000Report } from './fixtures.js';
import { writeTar } from '../hostile/build.js';
import { PAYLOADS, payloadMembers } from '../hostile/corpus.js';
import { needs } from '../helpers/needs.js';
import { OC_EXAMPLES, OC_EXAMPLES_ABSENT, ocExampleTree } from '../helpers/oc-examples.js';

const CHROMIUM = '/usr/bin/chromium';
/** Rules whose findings are critical: with --fail-on critical their samples exit 1. */
const CRITICAL_RULES = ['clusteroperator-unavailable'];
const hasChromium = existsSync(CHROMIUM);
const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

describe.skipIf(!hasChromium)(`HTML report in Chromium ${needs(`${CHROMIUM}: install chromium to run it; CI does`)}`, () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    dir = mkdtempSync(join(tmpdir(), 'mgsift-report-'));
    mkdirSync(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function open(name: string, html: string, javaScriptEnabled = true) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);
    const url = pathToFileURL(file).href;
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') errors.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    return { page, context, url, requests, errors, dialogs };
  }

  it('seed 000: renders findings and the timeline, no request, no error, payloads inert', async () => {
    const { page, context, url, requests, errors, dialogs } = await open('seed000', renderHtml(seed000Report()));
    try {
      await expect(page.locator('article.finding').first()).toBeVisibleSoon();
      expect(await page.locator('article.finding').count()).toBe(2);
      expect(await page.locator('article.finding h3').first().innerText()).toContain(
        'Outgoing CVO exited before its final ClusterVersion status sync',
      );
      const svg = page.locator('svg.timeline-svg').first();
      expect(await svg.isVisible()).toBe(true);
      const box = await svg.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(500);
      expect(box?.height ?? 0).toBeGreaterThan(150);
      expect(await svg.locator('rect.bar.hist').count()).toBe(2);
      expect(await page.locator('mark').first().innerText()).toBe('unable to perform final sync: context canceled');

      // The payloads are text, not elements; nothing ran.
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('img[src=x]').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.getByText('<script>alert(1)</script>').first().isVisible()).toBe(true);
      expect(await page.locator('[onerror]').count()).toBe(0);
      await page.waitForTimeout(300); // give a payload the chance to fire
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);

      await page.screenshot({ path: join(OUTPUT, 'browser-seed000.png'), fullPage: true });
      await svg.screenshot({ path: join(OUTPUT, 'browser-seed000-timeline.png') });
    } finally {
      await context.close();
    }
  });

  it('rollback and 20-entry reports: render without error or request', async () => {
    for (const [name, report] of [
      ['rollback', rollbackReport()],
      ['many', manyEntriesReport()],
    ] as const) {
      const { page, context, url, requests, errors, dialogs } = await open(name, renderHtml(report));
      try {
        expect(await page.locator('svg.timeline-svg').first().isVisible()).toBe(true);
        expect(await page.locator('td .rollback-label', { hasText: 'rollback (y-stream)' }).first().isVisible()).toBe(true);
        expect(await page.locator('svg.timeline-svg tspan.rollback-label').first().isVisible()).toBe(true);
        expect(await page.locator('img').count()).toBe(0);
        expect(dialogs).toEqual([]);
        expect(errors).toEqual([]);
        expect(requests).toEqual([url]);
        await page.screenshot({ path: join(OUTPUT, `browser-${name}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    }
  });

  it('every bundled sample: the analyze HTML shows its findings and timeline, with no request or error', async () => {
    const samples = fileURLToPath(new URL('../../samples/', import.meta.url));
    for (const scenario of readdirSync(join(samples, 'scenarios')).sort()) {
      const expected = (yaml.load(readFileSync(join(samples, 'scenarios', scenario, 'expect.yaml'), 'utf8')) as { findings: string[] }).findings;
      const run = mgsift(['analyze', join(samples, `${scenario}.tar.gz`), '--format', 'html', '-o', '-', '--fail-on', 'critical']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(expected.some((id) => CRITICAL_RULES.includes(id)) ? 1 : 0);
      const { page, context, url, requests, errors, dialogs } = await open(`sample-${scenario}`, run.stdout);
      try {
        expect(await page.locator('article.finding').count(), scenario).toBe(expected.length);
        for (const id of expected) expect(await page.locator('article.finding', { hasText: id }).first().isVisible(), `${scenario}: ${id}`).toBe(true);
        if (expected.length > 0) expect(await page.locator('svg.timeline-svg').first().isVisible(), scenario).toBe(true);
        expect(dialogs).toEqual([]);
        expect(errors).toEqual([]);
        expect(requests).toEqual([url]);
        await page.screenshot({ path: join(OUTPUT, `browser-sample-${scenario}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    }
  }, 180_000); // six analyses and six pages: minutes on a loaded machine

  it('the cluster at a glance, then the diagnosis, open the page, and each of the diagnosis links lands on its finding', async () => {
    const samples = fileURLToPath(new URL('../../samples/', import.meta.url));
    const run = mgsift(['analyze', join(samples, 'mco-ignition-rollback.tar.gz'), '--format', 'html', '-o', '-', '--fail-on', 'critical']);
    expect(run.stderr).toBe('');
    const { page, context, url, requests, errors } = await open('diagnosis-mco-ignition', run.stdout);
    try {
      expect(await page.locator('main > section').evaluateAll((els) => els.slice(0, 2).map((el) => el.id))).toEqual(['summary', 'diagnosis']);
      expect(await page.locator('#diagnosis h2').innerText()).toBe('Diagnosis');
      // The MCO root, and ingress (the other operator of the same finding, which ClusterVersion Failing names).
      expect(await page.locator('#diagnosis ol.diagnosis > li.root').count()).toBe(2);
      const links = page.locator('#diagnosis a.diagnosis-link');
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs).toEqual([
        '#finding-mco-ignition-spec-unsupported',
        '#finding-mcp-degraded',
        '#finding-clusteroperator-unavailable',
        '#finding-clusteroperator-upgradeable-false',
        '#finding-update-health__update-slow_',
        '#finding-clusteroperator-degraded',
        '#finding-update-rollback',
        '#finding-cvo-restarted-during-update',
        '#finding-ingress-router-pods-unavailable',
        '#finding-clusteroperator-degraded',
        '#finding-clusterversion-failing',
      ]);
      for (let i = 0; i < hrefs.length; i++) {
        await links.nth(i).click();
        expect(new URL(page.url()).hash).toBe(hrefs[i]);
        const target = page.locator(`article.finding${hrefs[i]}`);
        expect(await target.count(), hrefs[i]).toBe(1);
        expect(await target.locator('.rule, h3').first().isVisible()).toBe(true);
        const box = await target.boundingBox();
        expect(box !== null && box.y >= -1 && box.y < 900, `${hrefs[i]} scrolled into view`).toBe(true);
        // A root cause is open; a symptom is folded under its title (the chain above says why) and opens on Enter.
        const body = target.locator('details.finding-body');
        if (!(await body.evaluate((d) => (d as HTMLDetailsElement).open))) {
          await target.locator('details.finding-body > summary').focus();
          await page.keyboard.press('Enter');
        }
        // The rule id (a finding per key adds `__<key>_` to its anchor).
        expect(await target.innerText()).toContain(hrefs[i]!.slice('#finding-'.length).split('__')[0]!);
      }
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      await page.screenshot({ path: join(OUTPUT, 'browser-diagnosis.png') });
    } finally {
      await context.close();
    }
  });

  it('hostile corpus payloads (log line evidence, object fields, file names): text, never markup; nothing runs or loads', async () => {
    const archive = join(dir, 'payloads.tar');
    await writeTar(archive, payloadMembers());
    const run = mgsift(['analyze', archive, '--format', 'html', '-o', '-', '--fail-on', 'critical']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { page, context, url, requests, errors, dialogs } = await open('hostile-payloads', run.stdout);
    try {
      for (const id of ['clusteroperator-degraded', 'cvo-status-rejected-capabilities']) {
        expect(await page.locator('article.finding', { hasText: id }).first().isVisible(), id).toBe(true);
      }
      // Each payload shows as the text it is: in the finding (object fields), the evidence
      // (the quoted log line) and the list of what could not be read (the file name).
      for (const payload of PAYLOADS) expect(await page.getByText(payload, { exact: false }).first().isVisible(), payload).toBe(true);
      expect(await page.getByText('Unsupported value: "<img src=x onerror=alert(7)>"', { exact: false }).first().isVisible()).toBe(true);
      expect(await page.locator('#problems', { hasText: `${PAYLOADS[1]}.yaml` }).isVisible()).toBe(true);
      expect(await page.locator('script, img, iframe, object, embed').count()).toBe(0);
      expect(await page.locator('[onerror], [onload], [onclick]').count()).toBe(0);
      expect(await page.locator('a[href^="javascript:"], a[href*="evil.example"]').count()).toBe(0);
      await page.waitForTimeout(300); // give a payload the chance to fire
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      await page.screenshot({ path: join(OUTPUT, 'browser-hostile-payloads.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('is readable with JavaScript off, and printing unfolds the folded sections', async () => {
    const { page, context, requests, url } = await open('seed000-nojs', renderHtml(seed000Report()), false);
    try {
      expect(await page.locator('article.finding').first().isVisible()).toBe(true);
      expect(await page.locator('svg.timeline-svg').first().isVisible()).toBe(true);
      // Folded on screen...
      expect(await page.locator('ul.passed').isVisible()).toBe(false);
      await page.locator('#passed summary').click();
      expect(await page.locator('ul.passed').isVisible()).toBe(true);
      await page.locator('#passed summary').click();
      // ...unfolded in print.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('ul.passed').isVisible()).toBe(true);
      const pdfOk = await page.pdf({ format: 'A4' }).then((b) => b.length > 1000);
      expect(pdfOk).toBe(true);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  });

  /** The samples the page-shape checks run on: the bundled ones, and the real must-gathers when present. */
  function shapeInputs(): { name: string; path: string }[] {
    const samples = fileURLToPath(new URL('../../samples/', import.meta.url));
    const real = fileURLToPath(new URL('../../../shared/samples-real/', import.meta.url));
    const out = readdirSync(samples)
      .filter((f) => f.endsWith('.tar.gz'))
      .sort()
      .map((f) => ({ name: f.replace(/\.tar\.gz$/, ''), path: join(samples, f) }));
    for (const name of ['must-gather-aws', 'must-gather-metal']) {
      const path = join(real, `${name}.tar.xz`);
      if (existsSync(path)) out.push({ name, path });
    }
    return out;
  }

  const htmlOf = new Map<string, string>();
  /** The analyze HTML of a sample, made once for the checks below. */
  function analyzeHtml(path: string): string {
    let html = htmlOf.get(path);
    if (html === undefined) {
      const run = mgsift(['analyze', path, '--format', 'html', '-o', '-', '--fail-on', 'critical']);
      expect(run.stderr).toBe('');
      html = run.stdout;
      htmlOf.set(path, html);
    }
    return html;
  }

  async function openAt1366(name: string, html: string) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, context };
  }

  it('at 1366×768: every finding is linked from the first screen (diagnosis or findings table); the real aws page is at most 5 screens', async () => {
    for (const input of shapeInputs()) {
      const { page, context } = await openAt1366(`shape-${input.name}`, analyzeHtml(input.path));
      try {
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        if (input.name === 'must-gather-aws') expect(height, `${input.name}: ${height}px`).toBeLessThanOrEqual(5 * 768);
        const anchors = await page.locator('article.finding').evaluateAll((els) => els.map((el) => el.id));
        // The findings table links every finding; the diagnosis above it links the causes and their chains.
        expect(await page.locator('#at-a-glance a').count(), input.name).toBe(anchors.length);
        for (const anchor of anchors) {
          const links = page.locator(`#at-a-glance a[href="#${anchor}"], #diagnosis a[href="#${anchor}"]`);
          const bottoms = await links.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom));
          const first = bottoms.indexOf(Math.min(...bottoms));
          expect(bottoms[first], `${input.name}: a link to ${anchor} on the first screen`).toBeLessThanOrEqual(768);
          // Keyboard: the link is focusable and Enter goes to the finding, whose title is then in view.
          await links.nth(first).focus();
          await page.keyboard.press('Enter');
          const inView = await page.locator(`#${anchor} h3`).evaluate((el) => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight;
          });
          expect(inView, `${input.name}: ${anchor} in view after its link`).toBe(true);
          await page.evaluate(() => window.scrollTo(0, 0));
        }
        await page.screenshot({ path: join(OUTPUT, `browser-1366-${input.name}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    }
  }, 300_000);

  /**
   * At 1366×768, without hovering: the names of what is wrong in each at-a-glance cell are text,
   * whole (inside their cell, on the first screen), and the first root of the diagnosis starts
   * on the first screen.
   */
  async function firstScreenAnswers(name: string, html: string, expected: Record<string, string[]>): Promise<void> {
    const { page, context } = await openAt1366(name, html);
    try {
      for (const [label, names] of Object.entries(expected)) {
        const cell = page.locator('.glance-item', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`, 'i') }) });
        const shown = cell.locator('.glance-names');
        expect(await shown.isVisible(), `${name}: ${label} names visible`).toBe(true);
        const text = await shown.innerText();
        for (const n of names) expect(text, `${name}: ${label}`).toContain(n);
        // Whole: inside its cell (wrapped, not cut) and above the fold.
        const fits = await shown.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const dd = el.parentElement!.getBoundingClientRect();
          return { inCell: r.left >= dd.left - 1 && r.right <= dd.right + 1, bottom: r.bottom, clipped: el.parentElement!.scrollWidth > el.parentElement!.clientWidth + 1 };
        });
        expect(fits.inCell && !fits.clipped, `${name}: ${label} names not cut`).toBe(true);
        expect(fits.bottom, `${name}: ${label} names on the first screen`).toBeLessThanOrEqual(768);
      }
      // The first root's heading (the li's first line) is on the first screen.
      const root = page.locator('#diagnosis ol.diagnosis > li.root').first();
      const top = await root.evaluate((el) => el.getBoundingClientRect().top);
      expect(top + 24, `${name}: first root at ${top}px`).toBeLessThanOrEqual(768);
      await page.screenshot({ path: join(OUTPUT, `browser-first-screen-${name}.png`) });
    } finally {
      await context.close();
    }
  }

  it('at 1366×768 the first screen says what is wrong and where: degraded operator, node not ready, degraded pool by name; the diagnosis begins', async () => {
    await firstScreenAnswers('seed000-first-screen', renderHtml(seed000Report()), {
      operators: ['unavailable: monitoring', 'degraded: ingress'],
      nodes: ['not ready: worker-2'],
      pools: ['worker degraded (1 node)'],
    });
  });

  it.skipIf(OC_EXAMPLES === undefined)(`at 1366×768 on oc's snapshot where a PDB blocks draining: the same (needs oc's examples: ${OC_EXAMPLES_ABSENT})`, async () => {
    const tree = ocExampleTree('4.16.0-ec2-control-plane-updated-pdb-prohibits-draining');
    try {
      await firstScreenAnswers('oc-pdb-first-screen', analyzeHtml(tree), {
        operators: ['degraded: machine-config'],
        nodes: ['not ready: build0-gstfj-ci-tests-worker-b-d9vz2'],
        pools: ['worker degraded (7 nodes)'],
      });
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  }, 120_000);

  it('timeline figures: no text overlaps another or lies over a bar, every diamond is labelled, shapes link to table rows', async () => {
    for (const input of shapeInputs()) {
      const { page, context } = await openAt1366(`svg-${input.name}`, analyzeHtml(input.path));
      try {
        const report = await page.evaluate(() => {
          type Box = { x0: number; y0: number; x1: number; y1: number; what: string };
          const box = (el: Element, what: string): Box => {
            const r = el.getBoundingClientRect();
            return { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom, what };
          };
          const overlap = (a: Box, b: Box, slack = 1): boolean =>
            a.x0 + slack < b.x1 && b.x0 + slack < a.x1 && a.y0 + slack < b.y1 && b.y0 + slack < a.y1;
          const inside = (a: Box, b: Box): boolean => a.x0 >= b.x0 - 1 && a.x1 <= b.x1 + 1 && a.y0 >= b.y0 - 1 && a.y1 <= b.y1 + 1;
          const problems: string[] = [];
          let diamonds = 0;
          for (const svg of document.querySelectorAll('svg.timeline-svg')) {
            const texts = [...svg.querySelectorAll('g.texts text')].map((t) => box(t, t.textContent ?? ''));
            const bars = [...svg.querySelectorAll('rect.bar')].map((r) => box(r, r.querySelector('title')?.textContent?.split('\n')[0] ?? 'bar'));
            texts.forEach((a, i) => {
              texts.slice(i + 1).forEach((b) => {
                if (overlap(a, b)) problems.push(`text "${a.what}" overlaps text "${b.what}"`);
              });
              // A label may sit inside its own bar; never across another bar.
              const own = bars.find((bar) => inside({ ...a, y0: a.y0 + 2, y1: a.y1 - 2 }, { ...bar, y0: bar.y0 - 4, y1: bar.y1 + 4 }));
              for (const bar of bars) if (bar !== own && overlap(a, bar, 2)) problems.push(`text "${a.what}" lies over bar "${bar.what}"`);
            });
            for (const d of svg.querySelectorAll('polygon.moment')) {
              diamonds++;
              const p = box(d, 'diamond');
              const cy = (p.y0 + p.y1) / 2;
              const labelled = texts.some((t) => Math.abs((t.y0 + t.y1) / 2 - cy) < 6 && (Math.abs(t.x0 - p.x1) < 6 || Math.abs(t.x1 - p.x0) < 6));
              if (!labelled) problems.push(`unlabelled diamond at ${Math.round(p.x0)},${Math.round(p.y0)}: ${d.querySelector('title')?.textContent ?? ''}`);
            }
          }
          const links = [...document.querySelectorAll('svg.timeline-svg a')].map((a) => a.getAttribute('href') ?? '');
          const missing = links.filter((href) => document.getElementById(href.slice(1)) === null);
          return { problems, diamonds, links: links.length, missing };
        });
        expect(report.problems, input.name).toEqual([]);
        expect(report.missing, input.name).toEqual([]);
        if (report.diamonds > 0) expect(report.links, input.name).toBeGreaterThan(0);
        // A shape's link opens the folded items table at its row.
        const first = page.locator('svg.timeline-svg a').first();
        if ((await first.count()) > 0) {
          const href = (await first.getAttribute('href')) ?? '';
          await first.click();
          await expect(page.locator(href)).toBeVisibleSoon();
        }
        await page.locator('svg.timeline-svg').first().screenshot({ path: join(OUTPUT, `browser-timeline-${input.name}.png`) });
      } finally {
        await context.close();
      }
    }
  }, 300_000);

  it('the index of a batch: renders, no request or error, a row per archive, its link opens the report', async () => {
    const samples = fileURLToPath(new URL('../../samples/', import.meta.url));
    const inputs = ['healthy', 'mco-ignition-rollback', 'old-boot-image'].map((name) => join(samples, `${name}.tar.gz`));
    const run = mgsift(['analyze', ...inputs, join(dir, 'missing.tar.gz'), '-o', dir, '--format', 'html', '--jobs', '2', '-q']);
    // The missing input could not be read at all: exit 2, the others' reports and the index written.
    expect(run.code).toBe(2);
    const { page, context, url, requests, errors, dialogs } = await open('index', readFileSync(join(dir, 'index.html'), 'utf8'));
    try {
      expect(await page.locator('p.exit-2', { hasText: 'Exit 2: 1 of 4 inputs could not be read at all (failed)' }).isVisible()).toBe(true);
      expect(await page.locator('table.matrix tbody tr:not(.why)').count()).toBe(4);
      expect(await page.locator('table.matrix tr.status-failed:not(.why)', { hasText: 'missing.tar.gz' }).isVisible()).toBe(true);
      expect(await page.locator('table.matrix th.rule-col', { hasText: 'clusteroperator-unavailable' }).isVisible()).toBe(true);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
      await page.screenshot({ path: join(OUTPUT, 'browser-index.png'), fullPage: true });
      await page.locator('a', { hasText: 'mco-ignition-rollback.tar.gz' }).click();
      await expect(page.locator('article.finding').first()).toBeVisibleSoon();
      expect(page.url()).toBe(pathToFileURL(join(dir, 'mco-ignition-rollback.html')).href);
    } finally {
      await context.close();
    }
  });
});

// A tiny matcher so the first check waits for layout rather than racing it.
expect.extend({
  async toBeVisibleSoon(received: { isVisible(): Promise<boolean>; waitFor(o: { state: 'visible'; timeout: number }): Promise<void> }) {
    try {
      await received.waitFor({ state: 'visible', timeout: 10_000 });
      return { pass: true, message: () => 'visible' };
    } catch {
      return { pass: false, message: () => 'not visible within 10 s' };
    }
  },
});

declare module 'vitest' {
  interface Assertion<T> {
    toBeVisibleSoon(): Promise<T>;
  }
}
