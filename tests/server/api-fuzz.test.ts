// Property-based fuzzing of the API edge against the real server over real HTTP. Every route the
// app registers under /api (read from the app, so a new route is fuzzed without changes here) gets
// generated path parameters, query strings, headers and bodies, as an anonymous browser and as a
// signed-in admin with a valid CSRF token (so requests reach the handlers). The multipart upload
// gets hostile batches and damaged streams, tus gets bad Upload-Length/Offset/Metadata, and a
// framing property sends lying Content-Lengths and broken chunking. Every answer must be below
// 500, every error JSON with `detail` and `code`, the server must keep answering, no damaged upload
// may leave a file record or blob, and nothing may be written outside DATA_DIR.
//
// Runs are bounded (the suite takes seconds on an idle 2-core machine). A failure prints the
// command that replays it: FUZZ_SEED (the run), FUZZ_PATH (the shrunk counterexample), FUZZ_ROUTE
// (only that route) and the test's name for -t. FUZZ_SCALE multiplies the number of cases for a
// longer local run. The closing summary counts cases, answers by status and 5xx per route family.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraHeaders, paramValue, percentEncode, queryString, resolve, type Filled } from './fuzz-arbitraries.ts';
import { bodyCase, BODY_FIELDS, EXAMPLE_BODIES, editedExample, edits, type BodyCase, type Edit } from './fuzz-bodies.ts';
import { FuzzWorld, type CsrfVariant, type Identity } from './fuzz-fixtures.ts';
import { contractViolation, FuzzStats, type ContractOptions, listApiRoutes, sendRaw, type ApiRoute, type RawRequest, type RawResponse } from './fuzz-http.ts';
import { eventually } from './files-fixtures.ts';
import { buildMultipart, multipartCase, unsafeRecord } from './fuzz-multipart.ts';
import { frame, framing, tusCase } from './fuzz-tus.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
// Generous: the runs take seconds, but the machine is shared and may be busy.
const TEST_TIMEOUT_MS = 240_000 * SCALE;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const params = (numRuns: number): fc.Parameters<unknown> => ({
  seed: SEED,
  numRuns: runs(numRuns),
  ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
});

/** fc.assert, with the command that replays a failure. */
async function check<T>(property: fc.IAsyncPropertyWithHooks<T>, numRuns: number, route?: ApiRoute): Promise<void> {
  const details = await fc.check(property, params(numRuns));
  if (!details.failed) return;
  const test = expect.getState().currentTestName?.split(' > ').pop() ?? '';
  const only = route ? ` FUZZ_ROUTE="${route.method} ${route.url}"` : '';
  const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}${only} npx vitest run tests/server/api-fuzz.test.ts -t "${test}"`;
  const where = route ? `${route.method} ${route.url}: ` : '';
  throw new Error(`${where}${fc.defaultReportMessage(details)}\nReplay: ${replay}`, { cause: details.errorInstance });
}

let world: FuzzWorld;
let routes: ApiRoute[];
const stats = new FuzzStats();
const started = Date.now();
/** Field names for generated bodies: the documented ones plus those the server names in its 422s. */
const fieldNames: string[] = [...BODY_FIELDS];

beforeAll(async () => {
  world = await FuzzWorld.start();
  routes = listApiRoutes(world.server.app);
  await learnFieldNames();
});

afterAll(async () => {
  console.log(`api-fuzz: ${routes?.length ?? 0} API routes read from the app, ${world?.adminRenewals ?? 0} admin renewals after a case ended the session or deleted its data`);
  console.log(stats.summary(SEED, Date.now() - started));
  await world?.close();
});

function family(route: ApiRoute): string {
  if (route.url.includes('/tus')) return 'upload-tus';
  return route.url.split('/')[2] ?? 'other';
}

/** Sends an empty JSON object as the admin to every route with a body and keeps the field names its 422 names. */
async function learnFieldNames(): Promise<void> {
  for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.url.includes('/tus'))) {
    const path = route.url.replace(/:(\w+)/g, (_, name: string) => world.fixtures[name === 'link_token' ? 'uploadToken' : 'adminFolderId']);
    const response = await sendRaw(world.port, { method: route.method, path, headers: [...world.identityHeaders('admin', 'valid'), ['content-type', 'application/json']], body: Buffer.from('{}') });
    await world.afterAdminRequest(route.method, response.status);
    const detail = JSON.parse(response.body.toString('utf8') || '{}').detail;
    if (!Array.isArray(detail)) continue;
    for (const issue of detail as Array<{ loc?: unknown[] }>) {
      const name = issue.loc?.[1];
      if (typeof name === 'string' && !fieldNames.includes(name)) fieldNames.push(name);
    }
  }
}

async function send(familyName: string, request: RawRequest, options: ContractOptions = {}): Promise<RawResponse> {
  const response = await sendRaw(world.port, request);
  stats.record(familyName, response);
  const violation = contractViolation(request, response, options);
  if (violation) throw new Error(`${request.method} ${request.path.slice(0, 200)}: ${violation}`);
  return response;
}

/** A canonical request after each case: the server still answers, and correctly. */
async function expectAlive(): Promise<void> {
  const response = await sendRaw(world.port, { method: 'GET', path: `/api/upload/${world.fixtures.uploadToken}/status`, headers: [] });
  if (response.status !== 200) throw new Error(`server no longer answers a canonical request (${response.status})`);
}

function fillPath(route: ApiRoute, values: Record<string, Filled>): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => percentEncode(resolve(values[name]!, world.fixtures)));
}

function bodyOf(route: ApiRoute, body: { generated: BodyCase } | { edits: Edit[] }): { body?: Buffer; contentType?: string } {
  if ('generated' in body) return body.generated;
  return editedExample(`${route.method} ${route.url}`, body.edits, world.fixtures)!;
}

const csrfVariant = fc.oneof(
  { weight: 8, arbitrary: fc.constant<CsrfVariant>('valid') },
  { weight: 1, arbitrary: fc.constantFrom<CsrfVariant>('missing', 'wrong') },
);

function routeCase(route: ApiRoute) {
  const generic = bodyCase(() => fieldNames).map((generated) => ({ generated }));
  const body: fc.Arbitrary<{ generated: BodyCase } | { edits: Edit[] }> =
    `${route.method} ${route.url}` in EXAMPLE_BODIES ? fc.oneof(generic, edits.map((e) => ({ edits: e }))) : generic;
  return fc.record({
    params: fc.record(Object.fromEntries(route.params.map((name) => [name, paramValue(route.url, name)]))) as fc.Arbitrary<Record<string, Filled>>,
    query: queryString,
    body,
    headers: extraHeaders,
    csrf: csrfVariant,
  });
}

async function fuzzRoutes(identity: Identity, numRuns: number): Promise<void> {
  const only = process.env.FUZZ_ROUTE;
  for (const route of routes.filter((r) => only === undefined || `${r.method} ${r.url}` === only)) {
    const property = fc.asyncProperty(routeCase(route), async (c) => {
      const headers = world.identityHeaders(identity, c.csrf);
      const body = bodyOf(route, c.body);
      if (body.contentType !== undefined) headers.push(['content-type', body.contentType]);
      const request: RawRequest = { method: route.method, path: fillPath(route, c.params) + c.query, headers: [...headers, ...c.headers], body: body.body };
      const response = await send(family(route), request, { plainTextErrors: route.url.includes('/tus') });
      if (identity === 'admin') await world.afterAdminRequest(route.method, response.status);
    });
    await check(property, numRuns, route);
    await expectAlive();
  }
}

describe('API fuzzing: every route', () => {
  it('finds the API routes in the app', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/upload/:link_token', params: ['link_token'] });
    expect(routes).toContainEqual({ method: 'PATCH', url: '/api/upload/:link_token/tus/:upload_id', params: ['link_token', 'upload_id'] });
  });

  it('as an anonymous browser: no 5xx, JSON errors with detail and code, the server keeps answering', async () => {
    await fuzzRoutes('anonymous', 10);
  }, TEST_TIMEOUT_MS);

  it('as a signed-in admin with a valid CSRF token', async () => {
    await fuzzRoutes('admin', 16);
  }, TEST_TIMEOUT_MS);
});

describe('API fuzzing: uploads', () => {
  it('multipart: hostile batches and damaged streams keep records and blobs consistent, damaged ones leave nothing', async () => {
    const { sizes } = world.server.app.uploads;
    const property = fc.asyncProperty(multipartCase, fc.boolean(), async (c, disconnect) => {
      const before = new Set((await world.uploadedRecords()).map((r) => r.id));
      const built = buildMultipart(c, (plainSize) => sizes.encryptedLength(plainSize));
      const token = world.fixtures[c.batch.link];
      // A client that drops out mid-body had declared the length of the whole body.
      const drop = disconnect && c.damage.kind === 'truncate';
      const headers = [...world.identityHeaders('anonymous', 'valid'), ['content-type', built.contentType] as [string, string]];
      if (drop) headers.push(['content-length', String(built.intactLength)]);
      const request: RawRequest = { method: 'POST', path: `/api/upload/${token}`, headers, body: built.body, contentLength: !drop, endAfterWrite: drop };
      const response = await send('upload-multipart', request, { allowNoAnswer: drop });

      // A body that is well-formed multipart is never "malformed", whatever its values.
      if (c.damage.kind === 'none' && response.body.toString('utf8').includes('Malformed multipart request.')) {
        throw new Error('a well-formed multipart body was answered "Malformed multipart request."');
      }
      const after = await world.uploadedRecords();
      const added = after.filter((r) => !before.has(r.id));
      if (built.damaged || response.status !== 200) {
        if (added.length > 0) throw new Error(`a refused or damaged upload (${response.status}) created ${added.length} record(s)`);
      } else {
        const reported = JSON.parse(response.body.toString('utf8')).successful_files.length;
        if (added.length !== reported) throw new Error(`${added.length} records created, ${reported} reported`);
      }
      for (const record of added) {
        const problem = unsafeRecord(record);
        if (problem) throw new Error(`unsafe file record: ${problem}`);
      }
      // Records only grow here, so the blob count must come down to theirs: at once, or after a
      // dropped connection once the server has noticed (its puts may be in an fsync, which a busy
      // shared disk can hold up for seconds).
      const recorded = after.filter((r) => r.blobKey.startsWith('files/')).length;
      if (!(await eventually(async () => world.multipartBlobs().length === recorded, 20_000))) {
        const leftover = world.multipartBlobs().filter((name) => !after.some((r) => r.blobKey === `files/${name}`));
        throw new Error(`blobs without a file record were left behind: ${leftover.join(', ')}`);
      }
      await expectAlive();
    });
    await check(property, 120);
    expect(world.escapes()).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('tus: bad Upload-Length, Upload-Offset and Upload-Metadata get 4xx, never a record', async () => {
    const { sizes } = world.server.app.uploads;
    const property = fc.asyncProperty(tusCase, async (c) => {
      await world.ensureTusUpload();
      const recordsBefore = (await world.uploadedRecords()).length;
      const token = world.fixtures[c.link];
      const onUpload = c.method !== 'POST' && !(c.method === 'OPTIONS' && 'text' in c.uploadId);
      const path = `/api/upload/${token}/tus${onUpload ? `/${percentEncode(resolve(c.uploadId, world.fixtures))}` : ''}`;
      const headers = world.identityHeaders('anonymous', 'valid');
      if (c.tusResumable !== null) headers.push(['tus-resumable', c.tusResumable]);
      const declared = /plainSize ([A-Za-z0-9+/=]*)/.exec(c.metadata.join(','))?.[1];
      const plainSize = Number(Buffer.from(declared ?? '', 'base64').toString('utf8'));
      const exactLength = Number.isSafeInteger(plainSize) && plainSize >= 0 && plainSize < 2 ** 40 ? sizes.encryptedLength(plainSize) : 1000;
      for (const length of c.uploadLength) headers.push(['upload-length', 'text' in length ? length.text : String(exactLength + length.skew)]);
      for (const offset of c.uploadOffset) headers.push(['upload-offset', 'text' in offset ? offset.text : String(world.tusOffset())]);
      for (const metadata of c.metadata) headers.push(['upload-metadata', metadata]);
      if (c.contentType !== null) headers.push(['content-type', c.contentType]);
      if (c.methodOverride !== null) headers.push(['x-http-method-override', c.methodOverride]);
      if (c.deferLength !== null) headers.push(['upload-defer-length', c.deferLength]);
      const response = await send('upload-tus', { method: c.method, path, headers, body: c.body }, { plainTextErrors: true });
      if (response.status === 201 && !/^\/api\/upload\/[^/]+\/tus\/[0-9a-f]{32}$/.test(response.headers.get('location') ?? '')) {
        throw new Error(`created with Location ${response.headers.get('location')}`);
      }
      if ((await world.uploadedRecords()).length !== recordsBefore) throw new Error('a tus request created a file record');
      await expectAlive();
    });
    await check(property, 150);
  }, TEST_TIMEOUT_MS);
});

describe('API fuzzing: HTTP framing', () => {
  it('lying Content-Length, broken chunking and Expect: 100-continue: no 5xx, no hang, the server keeps answering', async () => {
    const withBody = routes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
    const property = fc.asyncProperty(
      fc.nat().chain((n) => {
        const route = withBody[n % withBody.length]!;
        return fc.record({ route: fc.constant(route), c: routeCase(route), identity: fc.constantFrom<Identity>('anonymous', 'admin'), framing });
      }),
      async ({ route, c, identity, framing: f }) => {
        const body = bodyOf(route, c.body);
        const framed = frame(body.body ?? Buffer.alloc(0), f);
        const headers = world.identityHeaders(identity, 'valid');
        if (body.contentType !== undefined) headers.push(['content-type', body.contentType]);
        const request: RawRequest = {
          method: route.method,
          path: fillPath(route, c.params),
          headers: [...headers, ...framed.headers],
          body: framed.body,
          contentLength: false,
          endAfterWrite: framed.end,
        };
        const response = await send('framing', request, { plainTextErrors: route.url.includes('/tus'), allowNoAnswer: framed.end });
        if (identity === 'admin') await world.afterAdminRequest(route.method, response.status);
        await expectAlive();
      },
    );
    await check(property, 100);
  }, TEST_TIMEOUT_MS);

  it('nothing was written outside DATA_DIR', () => {
    expect(world.escapes()).toEqual([]);
  });
});
