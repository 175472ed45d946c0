/**
 * Where the specs that a review compares come from: the working api.yaml, a file, a git revision,
 * or the last released spec, which api:release snapshots under generated/releases/ so that a fresh
 * clone can compare against it with no network and no tags.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import YAML from 'yaml';
import { API_DOCUMENT_PATH } from '../../src/contract/openapi';

export const ROOT = path.resolve(__dirname, '..', '..');
export const API_FILE = API_DOCUMENT_PATH;
export const RELEASES_DIR = path.join(ROOT, 'generated', 'releases');
export const CHANGELOG_FILE = path.join(ROOT, 'CHANGELOG.md');

export interface SpecSource {
  /** What a reviewer reads in the report: "api.yaml", "release 1.0.0", "git main". */
  label: string;
  text: string;
  document: OpenApiDocument;
  version: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

export const releaseFile = (version: string) => path.join(RELEASES_DIR, `api-${version}.yaml`);

/** The released versions, oldest first. */
export function listReleases(releasesDir = RELEASES_DIR): string[] {
  if (!existsSync(releasesDir)) return [];
  return readdirSync(releasesDir)
    .map((name) => /^api-(.+)\.yaml$/.exec(name)?.[1])
    .filter((version): version is string => version !== undefined && semver.valid(version) !== null)
    .sort(semver.compare);
}

export function parseSpec(label: string, text: string): SpecSource {
  let document: OpenApiDocument;
  try {
    document = YAML.parse(text) as OpenApiDocument;
  } catch (error) {
    throw new Error(`${label} is not valid YAML: ${(error as Error).message}`);
  }
  const version = document?.info?.version;
  if (typeof version !== 'string') throw new Error(`${label} has no info.version`);
  if (!semver.valid(version)) throw new Error(`${label}: info.version '${version}' is not a semantic version (MAJOR.MINOR.PATCH)`);
  return { label, text, document, version };
}

/** Inside the repository, relative to it; elsewhere, absolute. */
const displayPath = (file: string) => {
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
};

export function readWorkingSpec(file = API_FILE): SpecSource {
  return parseSpec(displayPath(file), readFileSync(file, 'utf8'));
}

export function readLatestRelease(releasesDir = RELEASES_DIR): SpecSource {
  const latest = listReleases(releasesDir).at(-1);
  if (latest === undefined) throw new Error(`no released spec under ${path.relative(ROOT, releasesDir)}: run \`npm run api:release\` once`);
  return parseSpec(`release ${latest}`, readFileSync(path.join(releasesDir, `api-${latest}.yaml`), 'utf8'));
}

/**
 * `--base` names a file when one exists at that path, otherwise a git revision whose api.yaml is
 * compared (a branch, tag or commit: `main`, `origin/main`, `HEAD~3`).
 */
export function readBase(base: string | undefined): SpecSource {
  if (base === undefined) return readLatestRelease();
  const asFile = path.resolve(base);
  if (existsSync(asFile)) return parseSpec(displayPath(asFile), readFileSync(asFile, 'utf8'));
  let text: string;
  try {
    text = execFileSync('git', ['show', `${base}:api.yaml`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch {
    throw new Error(`--base ${base}: no such file, and git has no api.yaml at revision '${base}'`);
  }
  return parseSpec(`git ${base}`, text);
}

/** Each released spec has its CHANGELOG.md entry: a snapshot added or kept by hand is caught. */
export function releasesWithoutEntry(releasesDir = RELEASES_DIR, changelogFile = CHANGELOG_FILE): string[] {
  const changelog = existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : '';
  return listReleases(releasesDir).filter((version) => !new RegExp(`^## ${version.replace(/\./g, '\\.')} `, 'm').test(changelog));
}
