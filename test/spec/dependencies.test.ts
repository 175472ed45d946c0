/**
 * `npm ci` on every Node the project supports installs without an engine warning: each package it
 * installs here accepts the oldest release of each Node line `package.json`'s `engines` names.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

/** The oldest release of each line `engines.node` accepts (`^20.19 || ^22.12 || ^24`: 20.19.0, 22.12.0, 24.0.0). */
const supported = manifest.engines.node.split('||').map((range) => semver.minVersion(range.trim())?.version ?? range);

/** The packages of the lock that `npm ci` installed on this platform, with the Node versions their engines refuse. */
function refusals(packages: typeof lock.packages): string[] {
  const found: string[] = [];
  for (const [where, entry] of Object.entries(packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || range === undefined || !existsSync(path.join(ROOT, where))) continue;
    for (const version of supported) if (!semver.satisfies(version, range)) found.push(`${where}@${entry.version ?? '?'} wants node ${range}, not ${version}`);
  }
  return found;
}

describe('the dependencies npm ci installs', () => {
  it('when package.json names the Node lines it supports, then they are 20, 22 and 24', () => {
    expect(supported.map((version) => semver.major(version))).toEqual([20, 22, 24]);
  });

  it('when every installed package\'s engines are read, then each accepts the oldest release of every supported Node line: npm ci warns of none', () => {
    expect(refusals(lock.packages)).toEqual([]);
  });

  it('when an installed package wants a newer Node (cookie 2 wants 22), then the check names it (it can fail)', () => {
    const planted = { ...lock.packages, 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } } };
    expect(refusals(planted)).toEqual(['node_modules/cookie@2.0.2 wants node >=22, not 20.19.0']);
  });
});
