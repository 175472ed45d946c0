import { randomBytes } from 'node:crypto';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import type { ObservedResponse } from './contract';
import type { ConcreteRequest, CredentialKind, FixtureView, IdRef, SecretRef } from './requests';

export interface Principal {
  id: string;
  token: string;
}

export interface FixtureOptions {
  baseUrl: string;
  /** An accepted API key; without one, API-key requests carry a wrong key. */
  apiKey?: string;
  /** The metrics token (METRICS_TOKEN); without one, metrics scrapes carry a wrong token. */
  metricsToken?: string;
  /** An Origin allowed to make cookie-authenticated changes. */
  origin: string;
  /** Makes (or signs in) an admin; without it, "admin" requests use the ordinary user. */
  admin?: () => Promise<Principal>;
}

type Piece = IdRef | 'userToken';

const WRONG_API_KEY = 'wrong-api-key-0123456789abcdef';
const WRONG_METRICS_TOKEN = 'wrong-metrics-token-0123456789abcdef';
// alg "none", no signature: must never be accepted.
const INVALID_BEARER = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
const RETRIES = 8;

interface CallResult {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/**
 * The fuzzer's own data, made over HTTP: a user with an agent, a task and a post, another user
 * with an agent, a spare user to delete, an admin. What a request destroys is rebuilt before the
 * next request goes out, so destructive requests do not derail the run.
 */
export class Fixtures {
  readonly ids: Record<IdRef, string> = { agent: '', otherAgent: '', task: '', post: '', user: '', other: '', spare: '', admin: '' };
  readonly secrets: Record<SecretRef, string> = { userEmail: '', userPassword: '' };
  private tokens = { user: '', other: '', admin: '', cookie: '' };
  private readonly etags = new Map<string, { current?: string; stale?: string }>();
  private readonly damaged = new Set<Piece>(['user', 'other', 'spare', 'admin', 'agent', 'otherAgent', 'task', 'post']);
  private repairing: Promise<void> | undefined;
  /** Password hashes the fixtures cost so far (sign-ups and sign-ins). */
  passwordOperations = 0;

  constructor(private readonly options: FixtureOptions) {}

  get view(): FixtureView {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const credentials: Record<CredentialKind, Record<string, string>> = {
      user: bearer(this.tokens.user),
      admin: bearer(this.tokens.admin || this.tokens.user),
      other: bearer(this.tokens.other),
      apiKey: { 'x-api-key': this.options.apiKey ?? WRONG_API_KEY },
      cookie: { cookie: this.tokens.cookie },
      cookieOrigin: { cookie: this.tokens.cookie, origin: this.options.origin },
      invalidBearer: { authorization: INVALID_BEARER },
      wrongApiKey: { 'x-api-key': WRONG_API_KEY },
      none: {},
      metricsToken: bearer(this.options.metricsToken ?? WRONG_METRICS_TOKEN),
    };
    return { ids: this.ids, secrets: this.secrets, credentials, etagOf: (path) => this.etags.get(path) ?? {} };
  }

  /** Resolves once nothing is broken; repairs first when something is. */
  ready(): Promise<void> {
    if (this.damaged.size === 0) return Promise.resolve();
    this.repairing ??= this.repairPatiently().finally(() => {
      this.repairing = undefined;
    });
    return this.repairing;
  }

  /** Fresh agents and tasks now and then, so state machines start over. */
  refresh(): void {
    for (const piece of ['agent', 'otherAgent', 'task'] as const) this.damaged.add(piece);
  }

  /** Learns from one exchange: ETags to reuse, fixtures it destroyed or changed. */
  observe(request: ConcreteRequest, response: ObservedResponse, match: { template: string; params: Record<string, string> } | undefined): void {
    const etag = response.headers.etag;
    if (etag && response.status >= 200 && response.status < 300 && !request.target.includes('?') && ['GET', 'PUT', 'PATCH'].includes(request.method)) {
      const known = this.etags.get(request.path);
      if (known?.current !== etag) {
        if (this.etags.size > 5000) this.etags.clear();
        this.etags.set(request.path, { current: etag, stale: known?.current ?? known?.stale });
      }
    }
    const auth = request.headers.authorization;
    if (response.status === 401 && auth) {
      if (auth === `Bearer ${this.tokens.user}`) this.damaged.add('userToken');
      if (auth === `Bearer ${this.tokens.other}`) this.damaged.add('other');
      if (this.tokens.admin && auth === `Bearer ${this.tokens.admin}`) this.damaged.add('admin');
    }
    if (!match || response.status < 200 || response.status >= 300) return;
    const { template, params } = match;
    if (request.method === 'POST' && (template === '/api/auth/logout' || template === '/api/auth/logout-all')) {
      // The session behind the credential sent (all of its user's sessions, for logout-all) has ended.
      if (auth === `Bearer ${this.tokens.user}` || (auth === undefined && this.tokens.cookie && request.headers.cookie?.includes(this.tokens.cookie))) this.damaged.add('userToken');
      if (auth === `Bearer ${this.tokens.other}`) this.damaged.add('other');
      if (this.tokens.admin && auth === `Bearer ${this.tokens.admin}`) this.damaged.add('admin');
    }
    if (request.method === 'DELETE') {
      if (template.endsWith('{task_id}')) {
        if (params.task_id === this.ids.task) this.damaged.add('task');
      } else if (template.endsWith('{agent_id}')) {
        if (params.agent_id === this.ids.agent) this.damage('agent', 'task');
        if (params.agent_id === this.ids.otherAgent) this.damage('otherAgent');
      } else if (template.endsWith('{user_id}')) {
        if (params.user_id === this.ids.user) this.damage('user', 'agent', 'task', 'post');
        if (params.user_id === this.ids.other) this.damage('other', 'otherAgent');
        if (params.user_id === this.ids.spare) this.damage('spare');
        if (params.user_id === this.ids.admin) this.damage('admin');
      }
    }
    if ((request.method === 'PUT' || request.method === 'PATCH') && template.endsWith('{user_id}') && params.user_id === this.ids.user) {
      const sent = decodeBody(request);
      const email = emailOf(response.body);
      if (sent === undefined) this.damage('user', 'agent', 'task', 'post');
      else {
        if (typeof sent.password === 'string') this.secrets.userPassword = sent.password;
        if (typeof email === 'string') this.secrets.userEmail = email;
      }
    }
  }

  private damage(...pieces: Piece[]): void {
    for (const piece of pieces) this.damaged.add(piece);
  }

  /** A destructive request still in flight can undo a repair (a user deleting itself): try again. */
  private async repairPatiently(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repair();
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        this.damage('userToken', 'agent', 'otherAgent', 'task', 'post');
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  private async repair(): Promise<void> {
    const has = (piece: Piece) => this.damaged.has(piece);
    if (has('admin')) {
      if (this.options.admin) {
        const admin = await this.options.admin();
        this.ids.admin = admin.id;
        this.tokens.admin = admin.token;
      }
      this.damaged.delete('admin');
    }
    if (has('user')) {
      this.secrets.userEmail = `fuzz-user-${randomBytes(6).toString('hex')}@example.test`;
      this.secrets.userPassword = `fuzz-password-${randomBytes(6).toString('hex')}`;
      this.ids.user = await this.signUp(this.secrets.userEmail, this.secrets.userPassword);
      this.damage('userToken', 'agent', 'task', 'post');
      this.damaged.delete('user');
    }
    if (has('userToken')) {
      const login = await this.call('POST', '/api/auth/login', { json: { email: this.secrets.userEmail, password: this.secrets.userPassword } }, [200, 401]);
      this.passwordOperations += 1;
      if (login.status === 401) {
        // The user is gone or its password changed in a way the fuzzer missed: start over.
        this.damage('user');
        return this.repair();
      }
      this.tokens.user = String((login.json.data as { access_token: string }).access_token);
      const cookie = /agent_fleet_session=[^;]*/.exec(login.headers.get('set-cookie') ?? '')?.[0];
      this.tokens.cookie = cookie ?? '';
      this.damaged.delete('userToken');
    }
    if (!this.options.admin) this.ids.admin = this.ids.user;
    if (has('other')) {
      const email = `fuzz-other-${randomBytes(6).toString('hex')}@example.test`;
      const password = `fuzz-password-${randomBytes(6).toString('hex')}`;
      this.ids.other = await this.signUp(email, password);
      const token = await this.call('POST', '/token', { form: { grant_type: 'password', username: email, password } });
      this.passwordOperations += 1;
      this.tokens.other = String(token.json.access_token);
      this.damage('otherAgent');
      this.damaged.delete('other');
    }
    if (has('spare')) {
      this.ids.spare = await this.signUp(`fuzz-spare-${randomBytes(6).toString('hex')}@example.test`, `fuzz-password-${randomBytes(6).toString('hex')}`);
      this.damaged.delete('spare');
    }
    if (has('agent')) {
      const agent = await this.createAgent(this.tokens.user);
      // The user owns as many agents as its quota allows: a fresh user has room.
      if (agent === undefined) return this.startOver('user', 'agent', 'task', 'post');
      this.ids.agent = agent;
      this.damage('task');
      this.damaged.delete('agent');
    }
    if (has('otherAgent')) {
      const agent = await this.createAgent(this.tokens.other);
      if (agent === undefined) return this.startOver('other', 'otherAgent');
      this.ids.otherAgent = agent;
      this.damaged.delete('otherAgent');
    }
    if (has('task')) {
      const task = await this.call('POST', `/agents/${this.ids.agent}/tasks`, { token: this.tokens.user, json: { title: 'fuzz task', input: { n: 1 }, priority: 3 } }, [201, 409]);
      if (task.status === 409) {
        // The user stores all its quota allows: start over with a fresh one. Otherwise the agent was
        // paused by an earlier request or holds all the tasks it may: a fresh one accepts tasks.
        if (quotaOf(task.json) === 'stored_bytes_per_user') return this.startOver('user', 'agent', 'task', 'post');
        return this.startOver('agent', 'task');
      }
      this.ids.task = String(task.json.id);
      this.damaged.delete('task');
    }
    if (has('post')) {
      const post = await this.call('POST', `/api/v1/users/${this.ids.user}/posts`, { token: this.tokens.user, json: { title: 'fuzz post', body: 'hello' } }, [201, 409]);
      if (post.status === 409) return this.startOver('user', 'agent', 'task', 'post');
      this.ids.post = String((post.json.data as { id: string }).id);
      this.damaged.delete('post');
    }
  }

  private startOver(...pieces: Piece[]): Promise<void> {
    this.damage(...pieces);
    return this.repair();
  }

  private async signUp(email: string, password: string): Promise<string> {
    const created = await this.call('POST', '/api/v1/users', { json: { name: 'Fuzz', email, password } });
    this.passwordOperations += 1;
    return String((created.json.data as { id: string }).id);
  }

  /** A new agent's id; undefined when its owner is at the quota of agents. */
  private async createAgent(token: string): Promise<string | undefined> {
    const agent = await this.call('POST', '/agents', { token, json: { name: `fuzz-${randomBytes(3).toString('hex')}`, type: 'type_a' } }, [201, 409]);
    return agent.status === 201 ? String(agent.json.id) : undefined;
  }

  /** One set-up request; 429 waits for the window (base-URL mode), anything unexpected stops the run. */
  private async call(method: string, path: string, options: { token?: string; json?: unknown; form?: Record<string, string> }, expected: number[] = [200, 201]): Promise<CallResult> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${this.options.baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      if (response.status === 429 && attempt < RETRIES) {
        const wait = Math.min(60, Number(response.headers.get('retry-after')) || 2 ** attempt);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      if (!expected.includes(response.status)) throw new Error(`fixture set-up: ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return { status: response.status, headers: response.headers, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    }
  }
}

/** The JSON object a request sent, decoded as the server would; undefined when it is not one. */
function decodeBody(request: ConcreteRequest): Record<string, unknown> | undefined {
  if (!request.body) return undefined;
  try {
    const encoding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
    const bytes = encoding === 'gzip' ? gunzipSync(request.body) : encoding === 'deflate' ? inflateSync(request.body) : encoding === 'br' ? brotliDecompressSync(request.body) : request.body;
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The quota a 409 names, on either surface. */
function quotaOf(body: Record<string, unknown>): unknown {
  const details = (body.details ?? (body.error as { details?: unknown } | undefined)?.details) as { quota?: unknown } | undefined;
  return details?.quota;
}

function emailOf(body: Buffer): string | undefined {
  try {
    const email = (JSON.parse(body.toString('utf8')) as { data?: { email?: unknown } }).data?.email;
    return typeof email === 'string' ? email : undefined;
  } catch {
    return undefined;
  }
}
