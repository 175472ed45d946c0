/**
 * npm run docs:build [-- --base <git revision | file>] [--out <dir>]
 *
 * Writes a static reference of the working api.yaml for reviewers: ReDoc and the spec as files
 * beside the page (nothing from a CDN; it opens from disk, offline), and the api:diff report
 * against the base as changes.html, linked from the top of the reference. Prints the page's path
 * as its last line.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { marked } from 'marked';
import { readRedocStandalone } from '../src/http/docs';
import { escapeHtml } from '../src/http/escape-html';
import { compareSpecs } from './api-review/compare';
import { countByCategory, renderReport } from './api-review/report';
import { API_FILE, readBase, readWorkingSpec, ROOT } from './api-review/spec-source';

// The pages run no inline script; the changes page runs none at all.
const referencePage = (title: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}: API reference (preview)</title>
  </head>
  <body>
    <div id="reference"></div>
    <script src="spec.js"></script>
    <script src="redoc.standalone.js"></script>
    <script src="init.js"></script>
  </body>
</html>
`;

const INIT_SCRIPT = `Redoc.init(window.API_SPEC, { hideDownloadButton: false, expandResponses: '' }, document.getElementById('reference'));
`;

const changesPage = (title: string, body: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}: changes under review</title>
    <style>
      body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 80rem; padding: 0 1rem; color: #1f2328; }
      table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
      th, td { border: 1px solid #d0d7de; padding: .35rem .6rem; text-align: left; vertical-align: top; }
      th { background: #f6f8fa; }
      code { background: #f6f8fa; padding: 0 .2rem; border-radius: 3px; font-size: 90%; }
      summary { cursor: pointer; margin: 1rem 0; }
    </style>
  </head>
  <body>
    <p><a href="index.html">← API reference</a></p>
${body}
  </body>
</html>
`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { base: { type: 'string' }, out: { type: 'string', default: path.join(ROOT, 'build', 'api-docs') } } });
  const out = path.resolve(values.out!);
  const base = readBase(values.base);
  const working = readWorkingSpec();
  const comparison = await compareSpecs(base, working);
  const report = renderReport(comparison);
  const counts = countByCategory(comparison);
  const title = working.document.info.title;

  const note =
    comparison.requiredBump === 'none'
      ? `> **Preview of api.yaml ${working.version}**: no change against ${base.label} ([review report](changes.html)).`
      : `> **Preview of api.yaml ${working.version} under review**: against ${base.label}, ${counts.breaking} breaking, ${counts['non-breaking']} non-breaking and ${counts.documentation} documentation changes; semver gate ${comparison.gate.passed ? 'passed' : 'failed'}. [Read the changes](changes.html).`;
  const spec = { ...working.document, info: { ...working.document.info, description: `${note}\n\n${working.document.info.description ?? ''}` } };

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'index.html'), referencePage(title));
  // A script, not a fetched JSON file: browsers refuse fetch() from a page opened from disk.
  writeFileSync(path.join(out, 'spec.js'), `window.API_SPEC = ${JSON.stringify(spec).replace(/</g, '\\u003c')};\n`);
  writeFileSync(path.join(out, 'init.js'), INIT_SCRIPT);
  writeFileSync(path.join(out, 'redoc.standalone.js'), readRedocStandalone());
  copyFileSync(API_FILE, path.join(out, 'api.yaml'));
  writeFileSync(path.join(out, 'changes.md'), report);
  writeFileSync(path.join(out, 'changes.html'), changesPage(title, await marked.parse(report)));

  console.log(`api.yaml ${working.version} against ${base.label}: ${counts.breaking} breaking, ${counts['non-breaking']} non-breaking, ${counts.documentation} documentation changes`);
  console.log(`report: ${path.join(out, 'changes.html')}`);
  console.log(path.join(out, 'index.html'));
}

main().catch((error: unknown) => {
  console.error(`docs:build: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
