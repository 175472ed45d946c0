/**
 * npm run api:release: the version the changes need, the changelog entry from the same diff, and
 * the snapshot later reviews compare against. Run on a copy of the project's files.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import semver from 'semver';
import YAML from 'yaml';
import { compareSpecs } from '../../scripts/api-review/compare';
import { release, setInfoVersion, unreleasedNotes, type ReleaseFiles } from '../../scripts/api-review/release';
import { API_FILE, parseSpec, readLatestRelease, releasesWithoutEntry, type OpenApiDocument } from '../../scripts/api-review/spec-source';

const API_TEXT = readFileSync(API_FILE, 'utf8');
const CURRENT = parseSpec('api.yaml', API_TEXT).version;

const CHANGELOG = `# Changelog

## Unreleased

<!-- Notes for the next release. -->

Agents can be searched by name.

## ${CURRENT} (2026-01-01)

The release before.
`;

describe('npm run api:release', () => {
  let dir: string;
  let files: ReleaseFiles;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'api-release-'));
    files = { apiFile: path.join(dir, 'api.yaml'), releasesDir: path.join(dir, 'releases'), changelogFile: path.join(dir, 'CHANGELOG.md') };
    mkdirSync(files.releasesDir);
    cpSync(API_FILE, files.apiFile);
    cpSync(API_FILE, path.join(files.releasesDir, `api-${CURRENT}.yaml`));
    writeFileSync(files.changelogFile, CHANGELOG);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Edits the working api.yaml of the copy the way a developer would: in the text, one line. */
  const addSearchParameter = () => {
    const text = readFileSync(files.apiFile, 'utf8');
    const anchor = "        - $ref: '#/components/parameters/AgentSort'\n";
    expect(text).toContain(anchor);
    writeFileSync(files.apiFile, text.replace(anchor, `${anchor}        - name: q\n          in: query\n          description: Only agents whose name contains this text.\n          schema:\n            type: string\n            maxLength: 100\n`));
  };

  test('when a compatible change is released, then the version gets a minor bump, the notes and the diff become its entry, and the spec is snapshotted', async () => {
    addSearchParameter();
    const next = semver.inc(CURRENT, 'minor')!;

    const result = await release({ date: '2026-11-23' }, files);

    expect(result.version).toBe(next);
    const api = readFileSync(files.apiFile, 'utf8');
    expect(parseSpec('api.yaml', api).version).toBe(next);
    // Only the version line changed besides the developer's edit: comments and layout stay.
    const before = API_TEXT.split('\n');
    const changedLines = api.split('\n').filter((line) => !before.includes(line));
    expect(changedLines).toEqual([`  version: ${next}`, '        - name: q', '          description: Only agents whose name contains this text.', '            maxLength: 100']);
    expect(readFileSync(path.join(files.releasesDir, `api-${next}.yaml`), 'utf8')).toBe(api);
    const changelog = readFileSync(files.changelogFile, 'utf8');
    expect(changelog).toContain(
      `## Unreleased\n\n<!-- Notes for the next release: what the diff cannot see (behaviour, migrations). npm run api:release moves them into its entry. -->\n\n## ${next} (2026-11-23)\n\nAgents can be searched by name.\n\nCompared with ${CURRENT} by \`npm run api:diff\`: a **minor** change.\n\n### Non-breaking\n\n- query parameter \`q\`: parameter added (\`GET /api/v1/agents\`)\n`,
    );
    expect(changelog.indexOf(`## ${next}`)).toBeLessThan(changelog.indexOf(`## ${CURRENT}`));
    expect(unreleasedNotes(changelog)).toBe('');
    // The next review starts from the new release: nothing left to report.
    const latest = readLatestRelease(files.releasesDir);
    expect(latest.version).toBe(next);
    expect((await compareSpecs(latest, parseSpec('api.yaml', api))).changes).toEqual([]);
  });

  test('when a breaking change is released, then the version gets a major bump', async () => {
    const document = YAML.parse(API_TEXT) as OpenApiDocument;
    delete (document.paths!['/agents/{agent_id}'] as Record<string, unknown>).delete;
    writeFileSync(files.apiFile, YAML.stringify(document));

    const result = await release({ date: '2026-11-23' }, files);

    expect(result.version).toBe(semver.inc(CURRENT, 'major'));
    expect(result.entry).toContain('### Breaking\n\n- operation: Operation `DELETE /agents/{agent_id}` was removed. (`DELETE /agents/{agent_id}`)');
  });

  test('when a breaking change is released under a version that is not major, then nothing is written', async () => {
    const document = YAML.parse(API_TEXT) as OpenApiDocument;
    delete (document.paths!['/agents/{agent_id}'] as Record<string, unknown>).delete;
    writeFileSync(files.apiFile, YAML.stringify(document));
    const minor = semver.inc(CURRENT, 'minor')!;

    await expect(release({ date: '2026-11-23', version: minor }, files)).rejects.toThrow(/breaking changes need a major version/);

    expect(readFileSync(files.changelogFile, 'utf8')).toBe(CHANGELOG);
    expect(() => readFileSync(path.join(files.releasesDir, `api-${minor}.yaml`))).toThrow();
  });

  test('when nothing changed since the last release, then there is nothing to release', async () => {
    await expect(release({ date: '2026-11-23' }, files)).rejects.toThrow(`nothing to release: api.yaml is release ${CURRENT}`);
  });

  test('when a released spec has no changelog entry, then it is named', () => {
    cpSync(API_FILE, path.join(files.releasesDir, 'api-9.0.0.yaml'));

    expect(releasesWithoutEntry(files.releasesDir, files.changelogFile)).toEqual(['9.0.0']);
  });

  test('when info.version is set in a YAML file, then only that line changes', () => {
    const text = 'openapi: 3.1.0\n# the contract\ninfo:\n  title: x\n  version: "1.2.3" \n  description: |\n    version: 9.9.9\npaths: {}\n';

    expect(setInfoVersion(text, '2.0.0')).toBe('openapi: 3.1.0\n# the contract\ninfo:\n  title: x\n  version: 2.0.0\n  description: |\n    version: 9.9.9\npaths: {}\n');
  });
});
