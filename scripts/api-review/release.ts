/**
 * A release of the contract: the version the changes since the last release need, the changelog
 * entry (the notes under "Unreleased", then what the diff found), and a snapshot of the spec as
 * released, which later reviews compare against.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { checkVersion, compareSpecs, type ApiComparison } from './compare';
import { renderChangelogEntry } from './report';
import { API_FILE, CHANGELOG_FILE, listReleases, parseSpec, readLatestRelease, RELEASES_DIR } from './spec-source';

export interface ReleaseFiles {
  apiFile: string;
  releasesDir: string;
  changelogFile: string;
}

export interface ReleaseOptions {
  /** An explicit version; by default the smallest that the changes allow. */
  version?: string;
  date: string;
  dryRun?: boolean;
}

export interface ReleaseResult {
  version: string;
  comparison: ApiComparison;
  entry: string;
  snapshot: string;
}

export const DEFAULT_FILES: ReleaseFiles = { apiFile: API_FILE, releasesDir: RELEASES_DIR, changelogFile: CHANGELOG_FILE };

const UNRELEASED = /^## Unreleased[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m;
const NOTES_PLACEHOLDER = '<!-- Notes for the next release: what the diff cannot see (behaviour, migrations). npm run api:release moves them into its entry. -->';

/** The notes written under "## Unreleased", without the placeholder comment. */
export function unreleasedNotes(changelog: string): string {
  const notes = UNRELEASED.exec(changelog)?.[1] ?? '';
  return notes.replace(/<!--[\s\S]*?-->/g, '').trim();
}

function insertEntry(changelog: string, entry: string): string {
  const reset = `## Unreleased\n\n${NOTES_PLACEHOLDER}\n\n`;
  if (UNRELEASED.test(changelog)) return changelog.replace(UNRELEASED, `${reset}${entry.trimEnd()}\n\n`);
  throw new Error('CHANGELOG.md has no "## Unreleased" section to release from');
}

/** Sets info.version in the YAML text itself, so the file keeps its comments and layout. */
export function setInfoVersion(text: string, version: string): string {
  const info = /^info:\n((?:[ \t]+.*\n|\n)*)/m.exec(text);
  if (!info) throw new Error('api.yaml has no top-level info block');
  const block = info[0];
  const updated = block.replace(/^(\s+version:\s*)(['"]?)[^'"\n]+\2\s*$/m, `$1${version}`);
  if (updated === block) throw new Error('api.yaml: info has no version line');
  return text.replace(block, updated);
}

export async function release(options: ReleaseOptions, files: ReleaseFiles = DEFAULT_FILES): Promise<ReleaseResult> {
  const working = parseSpec(path.basename(files.apiFile), readFileSync(files.apiFile, 'utf8'));
  const base = readLatestRelease(files.releasesDir);
  const comparison = await compareSpecs(base, working);
  if (comparison.requiredBump === 'none' && options.version === undefined) throw new Error(`nothing to release: api.yaml is release ${base.version}`);
  const bump = comparison.requiredBump === 'none' ? 'patch' : comparison.requiredBump;
  const smallest = semver.inc(base.version, bump)!;
  const version = options.version ?? (semver.gt(working.version, smallest) ? working.version : smallest);
  if (!semver.valid(version)) throw new Error(`--version ${version} is not a semantic version`);
  if (!semver.gt(version, base.version)) throw new Error(`version ${version} must be above the last release, ${base.version}`);
  const gate = checkVersion(base.version, version, comparison.requiredBump);
  if (!gate.passed) throw new Error(gate.reason);
  if (listReleases(files.releasesDir).includes(version)) throw new Error(`release ${version} exists already`);

  const changelog = existsSync(files.changelogFile) ? readFileSync(files.changelogFile, 'utf8') : '';
  const entry = renderChangelogEntry({ ...comparison, revision: { ...comparison.revision, version } }, version, options.date, unreleasedNotes(changelog));
  const spec = setInfoVersion(working.text, version);
  if (parseSpec('released api.yaml', spec).version !== version) throw new Error('info.version could not be set');
  const snapshot = path.join(files.releasesDir, `api-${version}.yaml`);
  if (!options.dryRun) {
    writeFileSync(files.apiFile, spec);
    mkdirSync(files.releasesDir, { recursive: true });
    writeFileSync(snapshot, spec);
    writeFileSync(files.changelogFile, insertEntry(changelog, entry));
  }
  return { version, comparison, entry, snapshot };
}
