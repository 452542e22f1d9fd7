import { createPublicOrigin } from '../../src/http/public-origin.js';
import { preparePageAssets } from '../../src/pages/assets.js';
import { createSite, type Site } from '../../src/pages/site.js';

/** The pages' site for tests that draw pages without a service: PUBLIC_URL rep.example.org. */
export async function testSite(basePath = ''): Promise<Site> {
  return createSite({
    basePath,
    publicOrigin: createPublicOrigin({
      publicUrl: 'https://rep.example.org',
      trustProxy: { mode: 'none' },
      peerAddress: () => '192.0.2.1',
    }),
    assets: await preparePageAssets({ script: '', style: '' }),
    poolMaxIps: 32,
    tokenTtlMs: 60_000,
  });
}
