import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstNonEmpty } from '../../../src/tools/common/aliases.js';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import {
  type TestService,
  expectError,
  postError,
  startTestService,
} from '../../support/service.js';

/**
 * One rule for a field and its alias, in every tool (docs/checks.md): the first of them that holds
 * more than white space wins. Each pair is followed over HTTP: IP `target`|`q`, domain
 * `domain`|`target`, pool discover `pool`|`domain`.
 */

describe('firstNonEmpty', () => {
  it.each([
    [['a', 'b'], 'a'],
    [['', 'b'], 'b'],
    [['  ', 'b'], 'b'],
    [[undefined, 'b'], 'b'],
    [['a', ''], 'a'],
    [['', ''], ''],
    [['  ', undefined], '  '],
    [[undefined, undefined], undefined],
  ])('picks from %j: %j', (values, expected) => {
    expect(firstNonEmpty(...values)).toBe(expected);
  });
});

const zones: FixtureZone[] = [
  {
    origin: 'alias-fixture.net',
    records: {
      'first.alias-fixture.net': { A: ['185.77.0.1'], TXT: ['v=spf1 ip4:185.77.0.1 -all'] },
      'second.alias-fixture.net': { A: ['185.77.0.2'], TXT: ['v=spf1 ip4:185.77.0.2 -all'] },
    },
  },
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ zones, env: { DAILY_LIMIT: '500' } });
});
afterAll(() => service.close());

/** Each tool's route, its field, its alias, and where the result names what was checked. */
const pairs = [
  { tool: 'IP', path: '/ip/v1', field: 'target', alias: 'q', checked: 'target' },
  { tool: 'domain', path: '/domain/v1', field: 'domain', alias: 'target', checked: 'domain' },
  {
    tool: 'pool discover',
    path: '/pool/v1/discover',
    field: 'pool',
    alias: 'domain',
    checked: 'pool',
  },
] as const;

const first = 'first.alias-fixture.net';
const second = 'second.alias-fixture.net';

describe.each(pairs)(
  'the $tool tool: $field and its alias $alias',
  ({ path, field, alias, checked }) => {
    async function checkedName(body: Record<string, string>): Promise<unknown> {
      const response = await service.post(path, body);
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as Record<string, unknown>)[checked];
    }

    it(`checks the alias when ${field} is empty`, async () => {
      expect(await checkedName({ [field]: '', [alias]: second })).toBe(second);
    });

    it(`checks the alias when ${field} is only white space`, async () => {
      expect(await checkedName({ [field]: '  ', [alias]: second })).toBe(second);
    });

    it(`checks the alias when ${field} is absent`, async () => {
      expect(await checkedName({ [alias]: second })).toBe(second);
    });

    it(`checks ${field} when the alias is empty`, async () => {
      expect(await checkedName({ [field]: first, [alias]: '' })).toBe(first);
    });

    it(`checks ${field} when both are given`, async () => {
      expect(await checkedName({ [field]: first, [alias]: second })).toBe(first);
    });

    it('answers 400 invalid_target when both are empty', async () => {
      await expectError(
        await service.post(path, { [field]: '', [alias]: ' ' }),
        400,
        postError('invalid_target'),
      );
    });

    it('answers 400 invalid_request when neither is given', async () => {
      await expectError(
        await service.post(path, {}),
        400,
        postError('invalid_request', expect.stringContaining(`alias ${alias}`)),
      );
    });
  },
);

describe('the example of docs/checks.md#the-alias-rule', () => {
  it('checks q when target is empty: {"target":"","q":"192.0.3.20"}', async () => {
    const response = await service.post('/ip/v1', { target: '', q: '192.0.3.20' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ kind: 'ipv4', target: '192.0.3.20' });
  });
});
