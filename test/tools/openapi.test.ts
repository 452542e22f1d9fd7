import { validate } from '@readme/openapi-parser';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../../scripts/demo-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { ApiError } from '../../src/http/errors.js';
import { tools } from '../../src/tools/registry.js';
import {
  assertAnswerDocumented,
  assertDocumented,
  documentedSchema,
} from '../support/documented.js';
import { type TestService, basePath, startTestService } from '../support/service.js';

/**
 * The served OpenAPI document (docs/openapi.md): valid OpenAPI 3.1 by a real validator, complete
 * for client generators, and true to the service: its limits are the service's, its examples are
 * requests the service answers, and what the routes answer is what it documents (the drift check
 * every route test runs through test/support/service.ts).
 */

interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { example?: string } }[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { schema?: { $ref?: string } }>;
    }
  >;
}

interface Document {
  openapi: string;
  info: { description?: string; license?: { name: string; url?: string } };
  tags?: { name: string; description?: string }[];
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

const poolMaxIps = 12;
/** Paths are relative to the base path, which `servers` carries (docs/openapi.md). */
const base = '';
let service: TestService;
let document: Document;

beforeAll(async () => {
  service = await startTestService({
    world: demoWorld(await loadZoneList()),
    env: (dns) => ({
      POOL_NS_PORT: String(dns.port),
      POOL_NS_ALLOW_NON_PUBLIC: 'true',
      POOL_MAX_IPS: String(poolMaxIps),
    }),
  });
  document = (await (await service.get('/openapi.json')).json()) as Document;
});
afterAll(() => service.close());

function operations(): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => [path, method, operation] as const),
  ) as [string, string, Operation][];
}

/**
 * What a key guards, not a check: a watch's manage key (PATCH, DELETE, its test event), a reports
 * inbox's key (its summary, uploads, verify, PATCH, DELETE).
 */
const managed = (operation: Operation) =>
  [[{ manageKey: [] }], [{ inboxKey: [] }]].some(
    (security) => JSON.stringify(operation.security) === JSON.stringify(security),
  );

/**
 * A POST whose credential is its link's code (a watch's e-mail confirmation and one-click
 * unsubscribe): `security: []`, no quota, no captcha.
 */
const linkPost = (operation: Operation) => JSON.stringify(operation.security) === '[]';

/** The checks: every POST that takes a quota unit and the captcha (a watch's creation too). */
const posts = () =>
  operations().filter(
    ([, method, operation]) => method === 'post' && !managed(operation) && !linkPost(operation),
  );

function requestSchema(operation: Operation): Record<string, unknown> {
  const ref = operation.requestBody?.content['application/json']?.schema.$ref ?? '';
  return document.components.schemas[ref.replace('#/components/schemas/', '')] ?? {};
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for @readme/openapi-parser, the swagger-parser successor', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('would fail that validation with an operationId used twice (the check can fail)', async () => {
    const broken = structuredClone(document);
    broken.paths[`${base}/domain/v1`]!.post!.operationId = 'checkIp';
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it('names every operation with a unique operationId', () => {
    const ids = operations().map(([, , operation]) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        ...['getIpStatus', 'checkIp', 'getIpResult', 'getIpBadge', 'getIpCard', 'getIpSharePage'],
        ...['checkDomain', 'getDomainResult', 'discoverPool', 'checkPool', 'getPoolResult'],
        ...['getMailStatus', 'checkMail', 'getMailResult', 'getMailBadge', 'getMailCard'],
        'getMailSharePage',
      ]),
    );
  });

  it('declares the captcha token as a security scheme and a header on every check', () => {
    expect(document.components.securitySchemes.captchaToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Captcha-Token',
    });
    expect(posts()).toHaveLength(7);
    for (const [, , operation] of posts()) {
      expect(operation.security).toEqual([{}, { captchaToken: [] }]);
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'X-Captcha-Token', in: 'header', required: false }),
      );
    }
  });

  it('documents Retry-After on the 429 and 503 of every check', () => {
    for (const [, , operation] of posts()) {
      for (const status of ['429', '503'])
        expect(Object.keys(operation.responses[status]?.headers ?? {})).toEqual(['Retry-After']);
    }
  });

  it('requires each check’s target, alias or not, as the alias rule says', () => {
    const rules: Record<string, string[]> = {
      [`${base}/ip/v1`]: ['target', 'q'],
      [`${base}/domain/v1`]: ['domain', 'target'],
      [`${base}/pool/v1/discover`]: ['pool', 'domain'],
    };
    for (const [path, [field, alias]] of Object.entries(rules)) {
      const schema = requestSchema(document.paths[path]!.post!);
      expect(schema.anyOf ?? schema.oneOf).toEqual([{ required: [field] }, { required: [alias] }]);
    }
    expect(requestSchema(document.paths[`${base}/pool/v1/check`]!.post!).required).toEqual([
      'pool',
      'ips',
    ]);
  });

  it('limits ips to what the service takes: 1 to POOL_MAX_IPS', async () => {
    const ips = requestSchema(document.paths[`${base}/pool/v1/check`]!.post!).properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(ips.ips).toMatchObject({ minItems: 1, maxItems: poolMaxIps });
    const tooMany = Array.from({ length: poolMaxIps + 1 }, (_, i) => `192.0.3.${100 + i}`);
    const response = await service.post('/pool/v1/check', {
      pool: 'pool.demo-sender.com',
      ips: tooMany,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(`1 to ${poolMaxIps}`);
  });

  it('gives examples the service itself answers with success', async () => {
    const examples = posts().flatMap(([path, , operation]) => {
      const schema = requestSchema(operation);
      const more = (schema.examples ?? []) as Record<string, unknown>[];
      return [schema.example as Record<string, unknown>, ...more].map((example) => ({
        path: path.slice(base.length),
        example,
      }));
    });
    expect(examples.map(({ example }) => example)).not.toContain(undefined);
    // Every name an example gives is one of the demo world's (`npm run demo`), and the mail tool's
    // and a mail watch's a domain with MX hosts there, so each example can be tried in the demo.
    const demo = demoWorld(await loadZoneList()).flatMap((zone) =>
      Object.entries(zone.records ?? {}),
    );
    const named = (name: string) => demo.some(([owner]) => owner === name);
    const withMx = (name: string) => demo.some(([owner, records]) => owner === name && records.MX);
    for (const { path, example } of examples) {
      const name = [example.target, example.domain, example.pool].find(
        (value): value is string => typeof value === 'string' && !/^[\d.:a-f]+$/.test(value),
      );
      if (name === undefined) continue;
      expect(named(name), `${path}: ${name}`).toBe(true);
      if (path === '/mail/v1' || example.kind === 'mail') {
        expect(withMx(name), `${path}: ${name}`).toBe(true);
      }
    }
    // An IPv6 address among them, on the demo world's lists that cover IPv6 (docs/ipv6.md).
    expect(examples.map(({ example }) => example.target)).toContain('2a0b:4e07:b3::66');
    // Discover first: a check takes only addresses a discover of the pool found.
    examples.sort((a, b) => Number(a.path.endsWith('/check')) - Number(b.path.endsWith('/check')));
    for (const { path, example } of examples) {
      const response = await service.post(path, example);
      // A check answers 200, a watch's or an inbox's creation 201.
      expect(response.status, `${path} ${await response.clone().text()}`).toBe(
        path === '/watch/v1' || path === '/reports/v1' ? 201 : 200,
      );
    }
  });
});

/** The component a `$ref` names. */
function component(ref: string | undefined): Record<string, unknown> {
  return document.components.schemas[(ref ?? '').replace('#/components/schemas/', '')] ?? {};
}

describe('the OpenAPI document, as a client generator reads it', () => {
  it('declares the security of every operation, [] where none', () => {
    for (const [path, method, operation] of operations()) {
      expect(operation.security, `${method} ${path}`).toBeDefined();
      if (method !== 'post' && !managed(operation))
        expect(operation.security, `${method} ${path}`).toEqual([]);
    }
  });

  it('gives each operation its own error schema, whose code is an enum of the codes it answers', () => {
    const names = new Set<string>();
    // A HEAD answers the GET's statuses without a body, so it has no error schema of its own.
    const withBodies = operations().filter(([, method]) => method !== 'head');
    for (const [path, method, operation] of withBodies) {
      const refs = new Set(
        Object.entries(operation.responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([, response]) => response.content?.['application/json']?.schema?.$ref)
          .filter((ref): ref is string => ref !== undefined),
      );
      expect(refs.size, `${method} ${path}`).toBe(1);
      const [ref] = [...refs];
      const schema = component(ref);
      const code = (schema.properties as Record<string, { enum?: string[] }>).code;
      expect(code?.enum, `${method} ${path}`).toContain('method_not_allowed');
      // Every status it documents is the status of one of its codes, and back.
      const statuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      expect(statuses).toContain('405');
      names.add(ref!);
    }
    expect([...names].some((name) => /\/Error$/.test(name))).toBe(false);
    expect(Object.keys(document.components.schemas)).not.toContain('Error');
    expect(
      (
        component('#/components/schemas/CheckIpError').properties as Record<
          string,
          { enum?: string[] }
        >
      ).code?.enum,
    ).toEqual(expect.arrayContaining(['invalid_target', 'quota_exceeded', 'dns_unavailable']));
    expect(
      (
        component('#/components/schemas/GetIpResultError').properties as Record<
          string,
          { enum?: string[] }
        >
      ).code?.enum,
    ).not.toContain('quota_exceeded');
  });

  it('carries the base path in servers, so paths are relative to it', () => {
    expect(document.servers).toEqual([{ url: '/tools/ip-reputation' }]);
    expect(Object.keys(document.paths)).toContain('/ip/v1');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/tools/'))).toEqual([]);
  });

  it('declares every tag it uses, with a description, and states a licence', () => {
    const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const [, , operation] of operations()) {
      for (const tag of operation.tags ?? []) expect(declared.get(tag), tag).toBeTruthy();
    }
    expect(document.info.license?.name).toBeTruthy();
  });

  it('documents 304 where an ETag is answered, and the document and page files as paths', () => {
    for (const path of [
      '/openapi.json',
      '/assets/{file}',
      '/ip/v1/{token}',
      '/ip/v1/share/{token}',
      '/ip/v1/share/{token}/card',
      '/ip/v1/share/{token}/badge.svg',
    ]) {
      expect(Object.keys(document.paths[path]?.get?.responses ?? {}), path).toContain('304');
    }
  });

  it('says the addresses of a pool check are distinct', () => {
    const ips = (
      requestSchema(document.paths['/pool/v1/check']!.post!).properties as Record<
        string,
        Record<string, unknown>
      >
    ).ips;
    expect(ips).toMatchObject({ uniqueItems: true });
  });

  it('documents Retry-After on every 503, which dns_unavailable and not_configured send', () => {
    for (const [path, method, operation] of operations()) {
      // A HEAD says the length of the body it leaves out, its error's too.
      const headers = method === 'head' ? ['Retry-After', 'Content-Length'] : ['Retry-After'];
      expect(Object.keys(operation.responses['503']?.headers ?? {}), `${method} ${path}`).toEqual(
        headers,
      );
    }
    expect(new ApiError('dns_unavailable', 'no answer').headers['Retry-After']).toBe('5');
    expect(new ApiError('not_configured', 'not yet').headers['Retry-After']).toBe('30');
  });
});

interface LintProblem {
  severity: string;
  ruleId: string;
  message: string;
  pointer?: string;
}

/**
 * `@redocly/openapi-core`'s lint under its `recommended` rules, in a thread of its own: its CPU
 * would otherwise hold the event loop that the other suites of this vitest worker share (files run
 * side by side in one process: vitest.config.ts, `isolate: false`). One thread lints every
 * document given, so the package and its rules load once.
 */
function lintInThread(sources: string[]): Promise<LintProblem[][]> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    import('@redocly/openapi-core').then(async ({ createConfig, lintFromString }) => {
      const config = await createConfig({ extends: ['recommended'] });
      const all = [];
      for (const source of workerData) {
        const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
        all.push(problems.map((problem) => ({
          severity: problem.severity,
          ruleId: problem.ruleId,
          message: problem.message,
          pointer: problem.location[0]?.pointer,
        })));
      }
      parentPort.postMessage(all);
    });`,
    { eval: true, workerData: sources },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

type Problems = Record<'error' | 'warn', string[]>;

function bySeverity(problems: LintProblem[]): Problems {
  const found = (severity: string) =>
    problems
      .filter((problem) => problem.severity === severity)
      .map((problem) => `${problem.ruleId} ${problem.pointer ?? ''}: ${problem.message}`);
  return { error: found('error'), warn: found('warn') };
}

/** A document of one operation with no security and a licence with no url. */
const broken = {
  openapi: '3.1.0',
  info: { title: 'Broken', version: '1', license: { name: 'Proprietary' } },
  servers: [{ url: '/' }],
  paths: {
    '/x': {
      get: {
        operationId: 'getX',
        summary: 'X',
        responses: { '200': { description: 'X' }, '400': { description: 'Bad' } },
      },
    },
  },
};

let linted: Promise<{ served: Problems; broken: Problems }> | undefined;

/** The served document and the broken one, linted once for the tests that read them. */
function lintedDocuments(): Promise<{ served: Problems; broken: Problems }> {
  linted ??= lintInThread([JSON.stringify(document), JSON.stringify(broken)]).then(
    ([served = [], wrong = []]) => ({ served: bySeverity(served), broken: bySeverity(wrong) }),
  );
  return linted;
}

describe('the OpenAPI document, as redocly lints it', () => {
  it("has no error and no warning under redocly's recommended rules", async () => {
    const { error, warn } = (await lintedDocuments()).served;
    // The reports' dashboard path is the contract's (docs/reports.md, "API"): `/view/{view_token}`
    // and `/{id}/verify` could name one URL only were `view` an inbox id, which is 22 characters.
    const dashboard = (problem: string) =>
      problem.startsWith('no-ambiguous-paths ') &&
      problem.includes(`\`${base}/reports/v1/view/{view_token}\` and \`${base}/reports/v1/{id}/`);
    expect({ error, warn: warn.filter((problem) => !dashboard(problem)) }).toEqual({
      error: [],
      warn: [],
    });
  });

  it('would fail with an operation of no security, or a licence of no url (the check can fail)', async () => {
    const problems = (await lintedDocuments()).broken;
    expect(problems.error).toContainEqual(expect.stringMatching(/^security-defined /));
    expect(problems.warn).toContainEqual(expect.stringMatching(/^info-license-strict /));
  });

  it('declares how each webhook delivery is signed, and a licence with its url', () => {
    const webhooks = (document as unknown as { webhooks: Record<string, { post: Operation }> })
      .webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([
      'reports.source_failing',
      'watch.changed',
      'watch.delisted',
      'watch.listed',
      'watch.test',
    ]);
    for (const { post } of Object.values(webhooks))
      expect(post.security).toEqual([{ webhookSignature: [] }]);
    expect(document.components.securitySchemes.webhookSignature).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'webhook-signature',
    });
    expect(document.info.license?.url).toMatch(/^https:\/\//);
  });
});

describe('the OpenAPI document says what the service does', () => {
  it('names every tool of the registry in its description, watches among them, with its path', () => {
    const described = document.info.description ?? '';
    expect(tools.map((tool) => tool.name)).toContain('watch');
    for (const tool of tools) {
      expect(described).toContain(`${tool.title} (\`/${tool.name}/v1\`): ${tool.description}`);
    }
  });

  it('describes every operation, so no client reads a bare summary', () => {
    const bare = operations()
      .filter(([, , operation]) => !operation.description?.trim())
      .map(
        ([path, method, operation]) => `${method.toUpperCase()} ${path} (${operation.operationId})`,
      );
    expect(bare).toEqual([]);
  });

  it('documents HEAD beside every GET, and the service answers it so', async () => {
    const gets = operations().filter(([, method]) => method === 'get');
    for (const [path, , get] of gets) {
      const head = document.paths[path]!.head;
      expect(head?.operationId, path).toBe(get.operationId!.replace(/^get/, 'head'));
      expect(Object.keys(head!.responses)).toEqual(Object.keys(get.responses));
      for (const response of Object.values(head!.responses))
        expect(response.content).toBeUndefined();
    }
    for (const path of ['/openapi.json', '/ip/v1/status']) {
      const body = await (await service.get(path)).arrayBuffer();
      const head = await service.fetch(service.url(path), {
        method: 'HEAD',
        headers: { 'Accept-Encoding': 'identity' },
      });
      expect(head.status, path).toBe(200);
      expect(await head.text()).toBe('');
      expect(Number(head.headers.get('content-length')), path).toBe(body.byteLength);
    }
  });

  it("keeps a caller's quota status out of every cache, and documents it", async () => {
    for (const tool of ['ip', 'domain', 'pool']) {
      const response = await service.get(`/${tool}/v1/status`);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const documented = document.paths[`/${tool}/v1/status`]!.get!.responses['200']!.headers;
      expect(documented).toHaveProperty('Cache-Control');
    }
  });

  it('serves the file each path example names', async () => {
    const examples = operations().flatMap(([path, method, operation]) => {
      const params = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      if (method !== 'get' || params.length === 0) return [];
      if (params.some((parameter) => parameter.schema?.example === undefined)) return [];
      return [
        params.reduce(
          (filled, parameter) => filled.replace(`{${parameter.name}}`, parameter.schema!.example!),
          path,
        ),
      ];
    });
    expect(examples).toContainEqual(expect.stringMatching(/^\/assets\/pages\.[0-9a-f]+\.css$/));
    for (const path of examples) expect((await service.get(path)).status, path).toBe(200);
  });

  it('calls a compressed answer’s ETag weak, as it is sent', async () => {
    const documented = JSON.stringify(
      document.paths['/ip/v1/{token}']!.get!.responses['200']!.headers,
    );
    expect(documented).toContain('weak (W/');
    const compressed = await service.fetch(service.url('/openapi.json'), {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(compressed.headers.get('etag')).toMatch(/^W\/"/);
    const identity = await service.fetch(service.url('/openapi.json'), {
      headers: { 'Accept-Encoding': 'identity' },
    });
    expect(identity.headers.get('etag')).toMatch(/^"/);
  });

  it('promises a share page’s ETag only with PUBLIC_URL, which this service has not', async () => {
    const page = document.paths['/ip/v1/share/{token}']!.get!.responses;
    expect(JSON.stringify(page['200'])).toMatch(/Without PUBLIC_URL .* no ETag/);
    expect(JSON.stringify(page['304'])).toContain('Only when the service has PUBLIC_URL');
    const posted = await service.post('/ip/v1', { target: '192.0.3.20' });
    const { token } = (await posted.json()) as { token: string };
    const shared = await service.get(`/ip/v1/share/${token}`, { Accept: 'text/html' });
    expect(shared.status).toBe(200);
    expect(shared.headers.get('etag')).toBeNull();
    expect(shared.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET by token', () => {
  it('sends an ETag of its bytes and an immutable Cache-Control, and answers 304 to it', async () => {
    const posted = await service.post('/ip/v1', { target: '192.0.3.20' });
    const { token } = (await posted.json()) as { token: string };
    const first = await service.get(`/ip/v1/${token}`);
    const etag = first.headers.get('etag');
    // Weak once compressed (docs/openapi.md), strong as the bytes' hash otherwise.
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const again = await service.get(`/ip/v1/${token}`, { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });
});

describe('the drift check of route answers', () => {
  it('rejects an answer with a field its schema does not document, or of another type', async () => {
    const response = await service.post('/ip/v1', { target: '192.0.3.10' });
    const answer = (await response.json()) as Record<string, unknown>;
    const schema = documentedSchema(service.app, 'POST', `${basePath}/ip/v1`)!;
    expect(() => assertDocumented(schema, answer, 'answer')).not.toThrow();
    expect(() => assertDocumented(schema, { ...answer, surprise: 1 }, 'answer')).toThrow(
      /fields its schema does not document: \.surprise/,
    );
    const ipScore = answer.ip_score as Record<string, unknown>;
    expect(() =>
      assertDocumented(schema, { ...answer, ip_score: { ...ipScore, extra: true } }, 'answer'),
    ).toThrow(/\.ip_score\.extra/);
    expect(() => assertDocumented(schema, { ...answer, ip: 7 }, 'answer')).toThrow(
      /does not match its schema/,
    );
  });

  it('checks an error answer against its operation’s error schema, the code among its own', async () => {
    const response = await service.post('/ip/v1', { target: '10.0.0.1' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    const route = `${basePath}/ip/v1`;
    expect(() => assertAnswerDocumented(service.app, 'POST', route, 400, body)).not.toThrow();
    expect(() =>
      assertAnswerDocumented(service.app, 'POST', route, 400, { ...body, code: 'not_found' }),
    ).toThrow(/does not match its schema/);
    expect(() => assertAnswerDocumented(service.app, 'POST', route, 409, body)).toThrow(
      /status 409 is not documented/,
    );
  });

  it('finds the documented schema of the literal path before a templated one', () => {
    const status = documentedSchema(service.app, 'GET', `${basePath}/ip/v1/status`);
    const stored = documentedSchema(service.app, 'GET', `${basePath}/ip/v1/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(status).toBeDefined();
    expect(stored).toBeDefined();
    expect(status).not.toBe(stored);
  });
});
