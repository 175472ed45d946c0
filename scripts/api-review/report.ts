/**
 * Markdown from a comparison: the review report (a pull request comment) and the changelog entry.
 * Both group identical changes: a shared schema changed once reads as one line that names every
 * operation it touches.
 */
import type { ApiChange, ApiComparison, Category } from './compare';

interface Row {
  category: Category;
  where: string;
  message: string;
  rules: string[];
  operations: string[];
}

const HEADINGS: Record<Category, string> = {
  breaking: '🔴 Breaking changes',
  'non-breaking': '🟢 Non-breaking changes',
  documentation: '📝 Documentation changes',
};

/** Longer lists than these fold away, so the breaking changes stay on screen. */
const FOLD_AFTER = 25;
const FOLD_OPERATIONS_AFTER = 6;

export function groupChanges(changes: ApiChange[]): Row[] {
  const rows = new Map<string, Row>();
  for (const change of changes) {
    const key = JSON.stringify([change.category, change.where, change.message, change.rules]);
    const row = rows.get(key) ?? { category: change.category, where: change.where, message: change.message, rules: change.rules, operations: [] };
    if (change.operation && !row.operations.includes(change.operation)) row.operations.push(change.operation);
    rows.set(key, row);
  }
  return [...rows.values()];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (text: string) => `\`${text}\``;

function table(rows: Row[]): string {
  const lines = ['| Change | Where | Operations | Rule |', '| --- | --- | --- | --- |'];
  for (const row of rows) {
    const operations = row.operations.length === 0 ? '(document)' : row.operations.length > FOLD_OPERATIONS_AFTER ? `<details><summary>${row.operations.length} operations</summary>${row.operations.map(code).join('<br>')}</details>` : row.operations.map(code).join('<br>');
    lines.push(`| ${cell(row.message)} | ${cell(row.where)} | ${cell(operations)} | ${cell(row.rules.join(', ') || '–')} |`);
  }
  return lines.join('\n');
}

function section(category: Category, rows: Row[]): string {
  const mine = rows.filter((row) => row.category === category);
  if (mine.length === 0) return '';
  const heading = `${HEADINGS[category]} (${mine.length})`;
  const fold = category === 'documentation' || (category === 'non-breaking' && mine.length > FOLD_AFTER);
  if (fold) return `<details>\n<summary><strong>${heading}</strong></summary>\n\n${table(mine)}\n\n</details>\n`;
  return `### ${heading}\n\n${table(mine)}\n`;
}

function countRows(rows: Row[]): Record<Category, number> {
  const count = (category: Category) => rows.filter((row) => row.category === category).length;
  return { breaking: count('breaking'), 'non-breaking': count('non-breaking'), documentation: count('documentation') };
}

/** How many grouped changes of each kind (the rows of the report). */
export const countByCategory = (comparison: ApiComparison) => countRows(groupChanges(comparison.changes));

export function renderReport(comparison: ApiComparison): string {
  const { base, revision, gate, requiredBump } = comparison;
  const rows = groupChanges(comparison.changes);
  const counts = countRows(rows);
  const parts = [
    `## API review: ${base.label} (${base.version}) → ${revision.label} (${revision.version})`,
    '',
    gate.passed ? `✅ **Semver gate passed:** ${gate.reason}.` : `❌ **Semver gate failed:** ${gate.reason}.`,
    '',
    requiredBump === 'none'
      ? 'No change to the contract.'
      : `${counts.breaking} breaking, ${counts['non-breaking']} non-breaking and ${counts.documentation} documentation changes; they need a **${requiredBump}** version bump.`,
    '',
  ];
  for (const category of ['breaking', 'non-breaking', 'documentation'] as const) {
    const text = section(category, rows);
    if (text) parts.push(text);
  }
  parts.push(
    '<sub>Rated by `redocly diff` with the `diff-recommended` rules on both specs with `allOf` merged and every `$ref` inlined, so each use of a shared schema is rated in its own direction (a tightened constraint breaks a request, not a response).</sub>',
    '',
  );
  return parts.join('\n');
}

function listItems(rows: Row[]): string {
  return rows
    .map((row) => {
      const operations = row.operations.length > 0 ? ` (${row.operations.map(code).join(', ')})` : '';
      return `- ${row.where}: ${row.message}${operations}`;
    })
    .join('\n');
}

/** One version's entry: the notes people wrote, then what the diff found. */
export function renderChangelogEntry(comparison: ApiComparison, version: string, date: string, notes: string): string {
  const rows = groupChanges(comparison.changes);
  const parts = [`## ${version} (${date})`, ''];
  if (notes.trim()) parts.push(notes.trim(), '');
  parts.push(`Compared with ${comparison.base.version} by \`npm run api:diff\`: a **${comparison.requiredBump}** change.`, '');
  for (const category of ['breaking', 'non-breaking'] as const) {
    const mine = rows.filter((row) => row.category === category);
    if (mine.length > 0) parts.push(`### ${category === 'breaking' ? 'Breaking' : 'Non-breaking'}`, '', listItems(mine), '');
  }
  const documentation = rows.filter((row) => row.category === 'documentation').length;
  if (documentation > 0) parts.push(`### Documentation`, '', `${documentation} descriptions, summaries or examples changed.`, '');
  return parts.join('\n');
}
