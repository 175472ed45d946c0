/**
 * The contract's `info` is fixed by the interface specification, and its release history starts
 * at 1.0.0: compatible work waits under "Unreleased" without moving `info.version`.
 */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { startTestApp, type TestApp } from '../support/harness';
import { API_FILE, CHANGELOG_FILE, listReleases, readLatestRelease, type OpenApiDocument } from '../../scripts/api-review/spec-source';

const SPECIFIED_INFO = { title: 'agent fleet API', description: 'AI agent fleet platform API', version: '1.0.0' };

describe('the contract as published', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(() => app.close());

  it('when /openapi.json is read, then its title, description and version are the specification\'s, word for word', async () => {
    const res = await fetch(`${await app.listen()}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { title, description, version } = ((await res.json()) as OpenApiDocument).info;
    expect({ title, description, version }).toEqual(SPECIFIED_INFO);
  });

  it('when api.yaml is read, then its shared HTTP rules live outside info', () => {
    const document = YAML.parse(readFileSync(API_FILE, 'utf8')) as OpenApiDocument;
    expect(document.info.description).toBe(SPECIFIED_INFO.description);
    expect(document['x-http-rules']).toEqual(expect.stringContaining('HEAD works wherever GET does'));
  });
});

describe('the release history', () => {
  it('when the releases are listed, then the first is 1.0.0 and it has its changelog entry', () => {
    expect(listReleases()[0]).toBe('1.0.0');
    expect(readFileSync(CHANGELOG_FILE, 'utf8')).toMatch(/^## 1\.0\.0 \(\d{4}-\d{2}-\d{2}\)$/m);
  });

  it('when api.yaml is compared with the last release, then info.version is that release (a release is a maintainer\'s act)', () => {
    const document = YAML.parse(readFileSync(API_FILE, 'utf8')) as OpenApiDocument;
    const latest = readLatestRelease();
    expect(document.info.version).toBe(latest.version);
    expect(latest.document.info.title).toBe(SPECIFIED_INFO.title);
    expect(latest.document.info.description).toBe(SPECIFIED_INFO.description);
  });
});
