import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Response } from 'express';
import { CONTENT_TYPES } from './static-files';

/** Where `npm run build:browser` writes the pages' bundles: dist/browser, from src/http and from dist/http alike. */
export const BROWSER_ASSETS_DIR = path.resolve(__dirname, '..', '..', 'dist', 'browser');

/** A hashed name changes with the content, so a browser may keep the file for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface BrowserAssets {
  /** The hashed file name of a plain one (`console.js` → `console-5GQ2ZT4N.js`). */
  fileOf(name: string): string;
  /** Answers `/assets/{file}` for a hashed name; any other name passes on (the JSON 404). */
  serve(req: { params: { file: string } }, res: Response, next: NextFunction): void;
  /** Answers with the file behind a plain name (`favicon.ico`), cached for a day. */
  servePlain(name: string, res: Response): void;
}

/**
 * The bundles `scripts/build-browser.ts` wrote: its manifest is read once, here; each file is read
 * when first asked for and then kept. Without a build the service cannot serve its pages, so it
 * does not start.
 */
export function loadBrowserAssets(dir = BROWSER_ASSETS_DIR): BrowserAssets {
  let manifest: Record<string, string>;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, string>;
  } catch (error) {
    throw new Error(`The pages' scripts and styles are not built in ${dir}: run \`npm run build\` (${(error as Error).message})`);
  }
  const hashed = new Set(Object.values(manifest));
  const loaded = new Map<string, { body: Buffer; type: string }>();
  const fileNamed = (file: string) => {
    let found = loaded.get(file);
    if (!found) {
      found = { body: readFileSync(path.join(dir, file)), type: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
      loaded.set(file, found);
    }
    return found;
  };
  const fileOf = (name: string): string => {
    const file = manifest[name];
    if (file === undefined) throw new Error(`no browser asset is named ${name}`);
    return file;
  };
  return {
    fileOf,
    serve: (req, res, next) => {
      if (!hashed.has(req.params.file)) return next();
      const { body, type } = fileNamed(req.params.file);
      res.type(type).set('Cache-Control', IMMUTABLE).send(body);
    },
    servePlain: (name, res) => {
      const { body, type } = fileNamed(fileOf(name));
      res.type(type).set('Cache-Control', 'public, max-age=86400').send(body);
    },
  };
}
