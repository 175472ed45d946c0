import { accessSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Response } from 'express';

/** The content type of each kind of file the service serves, by extension. */
export const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/**
 * Serves a fixed set of files by the name in the `file` path parameter, each read when first asked
 * for and then kept; any other name passes on (and ends as the JSON 404). No directory walking,
 * ranges or conditional requests: each answer is 200 with the whole file, cached for an hour, as
 * api.yaml declares.
 */
export function serveFixedFiles(files: Record<string, string>): (req: { params: { file: string } }, res: Response, next: NextFunction) => void {
  const types = new Map(
    Object.entries(files).map(([name, file]) => {
      const type = CONTENT_TYPES[path.extname(file)];
      if (!type) throw new Error(`no content type for ${file}`);
      // A file missing from the installed package stops the start rather than fail its first request.
      accessSync(file);
      return [name, type] as const;
    }),
  );
  const loaded = new Map<string, Buffer>();
  return (req, res, next) => {
    const name = req.params.file;
    const type = types.get(name);
    if (type === undefined) return next();
    let body = loaded.get(name);
    if (body === undefined) {
      body = readFileSync(files[name] as string);
      loaded.set(name, body);
    }
    res.type(type).set('Cache-Control', 'public, max-age=3600').send(body);
  };
}
