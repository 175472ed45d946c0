/**
 * Self time of a V8 CPU profile (.cpuprofile) attributed to the components a request passes
 * through. COMPONENTS is the table: the first row whose matcher fits a sampled frame names its
 * component. Frames without a script URL (native code, V8 builtins, regular expressions) that no
 * row names are their caller's work: the caller's frame is matched instead. Whatever no row names
 * is "other", listed by function so the table can be refined.
 */

export interface CallFrame {
  functionName: string;
  /** file:///... for modules, node:... for Node's own, '' for native code, builtins and code built with `new Function`. */
  url: string;
}

export interface FrameMatcher {
  name?: RegExp;
  url?: RegExp;
  /** Some caller's URL: a shared helper or a Node internal doing a given library's work. */
  calledFrom?: RegExp;
}

const packages = (...names: string[]) => new RegExp(`/node_modules/(${names.map((name) => name.replace(/[.]/g, '\\.')).join('|')})/`);
/** The service's compiled code (dist/<area>/ maps to src/<area>/), not a package's own dist/. */
const service = (area: string) => new RegExp(`^file://(?!.*/node_modules/).*/dist/${area}`);

export const OTHER = 'other';
/** Not CPU spent on requests: waiting in the event loop, and the VM's own bookkeeping. */
export const EXCLUDED = new Set(['(idle)', '(program)']);

export const COMPONENTS: Array<[string, FrameMatcher]> = [
  ['(idle)', { name: /^\(idle\)$/ }],
  ['(program)', { name: /^\(program\)$/ }],
  ['(garbage collector)', { name: /^\(garbage collector\)$/ }],
  // ajv compiles each schema to a function validate<n> built with `new Function`: no script URL.
  ['ajv: generated validators', { name: /^validate\d*$/, url: /^$/ }],
  ['ajv: compiler, formats, runtime', { url: packages('ajv', 'ajv-formats', 'ajv-draft-04', 'fast-uri', 'fast-deep-equal', 'json-schema-traverse') }],
  ['better-sqlite3', { url: packages('better-sqlite3') }],
  // knex's dialect calls the statements' native all()/run(): their time is this function's self time.
  ['better-sqlite3', { url: /\/node_modules\/knex\/lib\/dialects\/better-sqlite3\//, name: /^_query$/ }],
  // knex is lodash's only user here (V8 cuts some stacks short at microtasks: no caller to go by).
  ['knex', { url: packages('knex', 'tarn', 'lodash') }],
  ['knex', { url: packages('debug'), calledFrom: packages('knex') }],
  ['pino, redact, sonic-boom', { url: packages('pino', 'pino-std-serializers', '@pinojs/redact', 'fast-redact', 'sonic-boom', 'quick-format-unescaped', 'safe-stable-stringify', 'on-exit-leak-free') }],
  // sonic-boom writes the log lines with fs.writeSync.
  ['pino, redact, sonic-boom', { url: /^node:fs$/, calledFrom: packages('sonic-boom') }],
  // express.json() for the declared JSON bodies (src/http/request-body.ts), run from the validator's chain.
  ['body-parser, raw-body, iconv-lite', { url: packages('body-parser', 'raw-body', 'iconv-lite', 'bytes', 'safer-buffer', 'unpipe') }],
  ['body-parser, raw-body, iconv-lite', { url: packages('content-type', 'type-is', 'media-typer', 'mime-types', 'on-finished', 'http-errors'), calledFrom: packages('body-parser') }],
  ['express-openapi-validator', { url: packages('express-openapi-validator', '@apidevtools/json-schema-ref-parser', 'media-typer', 'lodash.clonedeep', 'lodash.get', 'ono') }],
  ['express-openapi-validator', { url: packages('path-to-regexp', 'content-type', 'qs'), calledFrom: packages('express-openapi-validator') }],
  ['helmet', { url: packages('helmet') }],
  ['cors', { url: packages('cors', 'object-assign') }],
  ['cors', { url: packages('vary'), calledFrom: packages('cors') }],
  ['express-rate-limit', { url: packages('express-rate-limit') }],
  ['prom-client', { url: packages('prom-client', 'tdigest', 'bintrees') }],
  ['uuid', { url: packages('uuid') }],
  [
    'Express: router, layers, req/res',
    {
      url: packages(
        'express', 'router', 'path-to-regexp', 'parseurl', 'finalhandler', 'send', 'content-type', 'content-disposition', 'cookie-signature',
        'encodeurl', 'escape-html', 'etag', 'fresh', 'http-errors', 'mime-types', 'on-finished', 'proxy-addr', 'forwarded', 'ipaddr.js', 'qs',
        'range-parser', 'type-is', 'vary', 'accepts', 'negotiator', 'statuses', 'depd', 'debug', 'is-promise',
      ),
    },
  ],
  ['crypto', { url: /^node:internal\/crypto\// }],
  // The system call that sends each response: kernel time, whatever the framework.
  ['Node: socket writes (native writev)', { name: /^(writev|writeBuffer|writeUtf8String|writeLatin1String)$/, url: /^$/, calledFrom: /^node:internal\/stream_base_commons$/ }],
  ['Node: HTTP, net, streams', { url: /^node:(_http_\w+|http|net|stream|internal\/streams\/\w+|internal\/stream_base_commons|internal\/http)$/ }],
  ['Node: events, timers, ticks, promises', { url: /^node:(events|timers|internal\/timers|internal\/priority_queue|internal\/linkedlist|internal\/process\/task_queues|internal\/async_hooks|internal\/process\/promises)$/ }],
  ['service: src/http', { url: service('http/') }],
  ['service: src/data', { url: service('data/') }],
  ['service: src/domain', { url: service('domain/') }],
  ['service: src/auth', { url: service('auth/') }],
  ['service: src (other)', { url: service('') }],
  // Bare Express's handlers (npm run bench:profile -- --against=express): its prepared statements'
  // native get()/all()/run() are their self time.
  ['bare Express app: handlers and their SQLite calls', { url: /\/express-app\.js$/ }],
  ['Node: other internals', { url: /^node:/ }],
];

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock (process.hrtime's, in µs). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Attribution {
  /** Microseconds of self time per component, excluded ones included. */
  byComponent: Map<string, number>;
  /** Microseconds of self time per unnamed function ("name url"): what "other" is made of. */
  otherFunctions: Map<string, number>;
}

function frameMatches(matcher: FrameMatcher, frame: CallFrame, callerUrls: () => string[]): boolean {
  if (matcher.name && !matcher.name.test(frame.functionName)) return false;
  if (matcher.url && !matcher.url.test(frame.url)) return false;
  return !matcher.calledFrom || callerUrls().some((url) => matcher.calledFrom?.test(url));
}

const shortUrl = (url: string) => url.replace(/^file:\/\/.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');

/** Self time of the samples taken within [fromMicros, toMicros) of the monotonic clock. */
export function attributeSelfTime(profile: CpuProfile, fromMicros: number, toMicros: number): Attribution {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const callerUrls = (id: number) => () => {
    const urls: string[] = [];
    for (let parent = parents.get(id); parent !== undefined; parent = parents.get(parent)) urls.push(nodes.get(parent)?.callFrame.url ?? '');
    return urls;
  };
  const named = new Map<number, { component: string; frame: CallFrame }>();
  const classify = (sampled: number) => {
    const known = named.get(sampled);
    if (known) return known;
    let id = sampled;
    let frame = (nodes.get(id) as ProfileNode).callFrame;
    let component = OTHER;
    for (;;) {
      const row = COMPONENTS.find(([, matcher]) => frameMatches(matcher, frame, callerUrls(id)));
      if (row) {
        component = row[0];
        break;
      }
      const parent = parents.get(id);
      if (frame.url !== '' || parent === undefined) break;
      id = parent;
      frame = (nodes.get(id) as ProfileNode).callFrame;
    }
    const result = { component, frame };
    named.set(sampled, result);
    return result;
  };

  const byComponent = new Map<string, number>();
  const otherFunctions = new Map<string, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const span = profile.timeDeltas[i + 1] ?? 0;
    if (time < fromMicros || time >= toMicros) continue;
    const { component, frame } = classify(profile.samples[i] as number);
    byComponent.set(component, (byComponent.get(component) ?? 0) + span);
    if (component === OTHER) {
      const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url) || '(native)'}`;
      otherFunctions.set(key, (otherFunctions.get(key) ?? 0) + span);
    }
  }
  return { byComponent, otherFunctions };
}
