import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConcreteRequest } from './requests';

/** Bodies larger than this go to a file next to the reproduction instead of into the line. */
const INLINE_BODY_BYTES = 8192;

/** Single quotes when the text is plain, bash's $'...' when it holds quotes or odd bytes. */
export function shellQuote(value: string | Buffer): string {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  if (bytes.every((byte) => byte >= 0x20 && byte < 0x7f && byte !== 0x27)) return `'${bytes.toString('latin1')}'`;
  let out = "$'";
  for (const byte of bytes) {
    if (byte === 0x27) out += "\\'";
    else if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x0d) out += '\\r';
    else if (byte === 0x09) out += '\\t';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

function headerBytes(name: string, value: string): Buffer {
  // Header values travel as latin1 on the wire; so does the reproduction.
  return Buffer.from(`${name}: ${value}`, 'latin1');
}

/** One line of shell that sends the same bytes (modulo curl's own Accept and User-Agent). */
export function curlLine(baseUrl: string, request: ConcreteRequest): string {
  const args = ['curl', '-sS', '-i', '--path-as-is', '-g'];
  if (request.method === 'HEAD') args.push('--head');
  else if (request.method !== 'GET' || request.body) args.push('-X', shellQuote(request.method));
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', shellQuote(headerBytes(name, value)));
  let prefix = '';
  if (request.body) {
    // curl would add its own form Content-Type otherwise.
    if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'content-type')) args.push('-H', "'Content-Type:'");
    if (request.body.length > INLINE_BODY_BYTES) {
      const directory = path.join(os.tmpdir(), 'agent-fleet-fuzz');
      mkdirSync(directory, { recursive: true });
      const file = path.join(directory, `${createHash('sha256').update(request.body).digest('hex').slice(0, 16)}.bin`);
      writeFileSync(file, request.body);
      args.push('--data-binary', shellQuote(`@${file}`));
    } else if (request.body.includes(0)) {
      // Shell arguments cannot hold NUL: printf writes the bytes to curl's stdin.
      prefix = `printf '%b' ${shellQuote(Buffer.from([...request.body].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')))} | `;
      args.push('--data-binary', '@-');
    } else args.push('--data-binary', request.body.length ? shellQuote(request.body) : "''");
  }
  if (request.absoluteForm) args.push('--request-target', shellQuote(`${baseUrl}${request.target}`), shellQuote(`${baseUrl}/`));
  else args.push(shellQuote(`${baseUrl}${request.target}`));
  return prefix + args.join(' ');
}
