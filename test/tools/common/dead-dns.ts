import { expect } from 'vitest';
import { expectError, postError, startTestService } from '../../support/service.js';

/**
 * What every tool answers while no DNS answers at all (a resolver on a closed port): its status
 * says `configured: false`, and its check is a 503 `not_configured` refused before anything was
 * counted. Each tool's suite runs it on its own check route.
 */
export async function expectNotConfiguredWhileDnsIsDead(
  tool: string,
  path: string,
  body: unknown,
): Promise<void> {
  const dead = await startTestService({ deadDns: true });
  try {
    const status = await dead.get(`/${tool}/v1/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ configured: false });
    await expectError(await dead.post(path, body), 503, postError('not_configured'));
    // Refused before anything was counted.
    expect(await (await dead.get(`/${tool}/v1/status`)).json()).toMatchObject({
      dailyRemaining: 50,
    });
  } finally {
    await dead.close();
  }
}
