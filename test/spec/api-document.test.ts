/**
 * The service reads api.yaml through its JSON twin, generated/api.json, only while the twin was
 * parsed from the very text api.yaml holds: the document it validates and serves is always api.yaml's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { API_DOCUMENT_PATH, digestOf, loadApiDocument, PARSED_API_DOCUMENT_PATH, type ParsedApiDocument } from '../../src/contract/openapi';

describe('the API document', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'api-document-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (yaml: string, twin: ParsedApiDocument) => {
    writeFileSync(path.join(dir, 'api.yaml'), yaml);
    writeFileSync(path.join(dir, 'api.json'), JSON.stringify(twin));
    return [path.join(dir, 'api.yaml'), path.join(dir, 'api.json')] as const;
  };

  it('when api.yaml is loaded, then the document is what its YAML says, and generated/api.json was parsed from it', () => {
    const text = readFileSync(API_DOCUMENT_PATH, 'utf8');
    expect(loadApiDocument()).toEqual(YAML.parse(text));
    expect((JSON.parse(readFileSync(PARSED_API_DOCUMENT_PATH, 'utf8')) as ParsedApiDocument).sha256).toBe(digestOf(text));
  });

  it('when the twin was parsed from the same text, then the document comes from the twin', () => {
    const yaml = 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\n';
    const [file, twin] = write(yaml, { sha256: digestOf(yaml), document: { openapi: '3.1.0', 'x-read-from': 'twin' } });
    expect(loadApiDocument(file, twin)).toEqual({ openapi: '3.1.0', 'x-read-from': 'twin' });
  });

  it('when the YAML changed after its twin was written, then the YAML is parsed', () => {
    const yaml = 'openapi: 3.1.0\ninfo: { title: edited, version: "2" }\n';
    const [file, twin] = write(yaml, { sha256: digestOf('openapi: 3.1.0\n'), document: { openapi: '3.1.0', 'x-read-from': 'twin' } });
    expect(loadApiDocument(file, twin)).toEqual({ openapi: '3.1.0', info: { title: 'edited', version: '2' } });
  });

  it('when the twin is missing or not JSON, then the YAML is parsed', () => {
    const yaml = 'openapi: 3.1.0\n';
    writeFileSync(path.join(dir, 'api.yaml'), yaml);
    expect(loadApiDocument(path.join(dir, 'api.yaml'), path.join(dir, 'absent.json'))).toEqual({ openapi: '3.1.0' });
    writeFileSync(path.join(dir, 'broken.json'), '{"sha256":');
    expect(loadApiDocument(path.join(dir, 'api.yaml'), path.join(dir, 'broken.json'))).toEqual({ openapi: '3.1.0' });
  });

  it('when each caller loads the document, then each gets its own copy to change', () => {
    const first = loadApiDocument();
    (first.info as Record<string, unknown>).title = 'changed';
    expect((loadApiDocument().info as Record<string, unknown>).title).toBe('agent fleet API');
  });
});

describe('what the document declares of what the service serves beyond its paths', () => {
  const document = loadApiDocument() as unknown as {
    webhooks?: Record<string, { post?: { parameters?: Array<{ name: string; in: string; required?: boolean }>; requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }>;
    components: { securitySchemes: Record<string, { type: string; flows?: Record<string, { tokenUrl?: string; refreshUrl?: string; scopes?: Record<string, string> }> }>; schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
  };

  it('when the webhooks section is read, then it declares the delivery: an Event body and the Standard Webhooks headers, each required', () => {
    const delivery = document.webhooks?.['fleetEvent']?.post;
    expect(delivery?.requestBody?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Event' });
    const headers = (delivery?.parameters ?? []).filter((parameter) => parameter.in === 'header');
    expect(headers.filter((parameter) => parameter.required).map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
  });

  it('when the token endpoint\'s scheme is read, then it declares every grant /token serves: the password with its refresh, and client credentials with the agent key scopes', async () => {
    const { AGENT_KEY_SCOPES } = await import('../../src/domain/agent-keys');
    const flows = document.components.securitySchemes['OAuth2Password']?.flows;
    expect(flows?.['password']).toMatchObject({ tokenUrl: '/token', refreshUrl: '/token' });
    expect(flows?.['clientCredentials']?.tokenUrl).toBe('/token');
    expect(Object.keys(flows?.['clientCredentials']?.scopes ?? {}).sort()).toEqual([...AGENT_KEY_SCOPES].sort());
    expect(document.components.schemas['TokenRequest']?.properties?.['grant_type']?.enum).toEqual(['password', 'refresh_token', 'client_credentials']);
  });
});
