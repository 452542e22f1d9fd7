import type { Config } from './config.js';
import { createResolver } from './dns/index.js';
import { createCaptchaVerifier } from './http/captcha.js';
import type { CaptchaRule } from './http/guard.js';
import type { Logger } from './http/log.js';
import { createDnsblEngine } from './reputation/dnsbl.js';
import { createZoneMonitor } from './reputation/zone-monitor.js';
import { loadZoneList } from './reputation/zones.js';
import { createCardCache } from './share/card-cache.js';
import { createCardRenderer, warmUpSummary } from './share/card.js';
import { createFontLoader } from './share/fonts.js';
import { createMemoryStore } from './store/memory.js';
import { readPageAssets } from './pages/read-assets.js';

/** About 650 cards of 35-65 KB. */
const cardCacheBytes = 32 * 1024 * 1024;

/**
 * Builds the services the app runs on from the configuration: resolver, zone list and its
 * self-test monitor, DNSBL engine, store, captcha rule. The first self-test has run when this
 * resolves, so `isConfigured` is meaningful from the first request.
 */
export async function createServices(config: Config, log: Logger) {
  const zones = await loadZoneList(config.zonesFile);
  const resolver = createResolver(config.dns);
  const monitor = createZoneMonitor({
    resolver,
    zones,
    ...(config.spamhausDqsKey ? { spamhausDqsKey: config.spamhausDqsKey } : {}),
    onRun: (run) => {
      const failed = run.verdicts.filter((verdict) => verdict.state === 'failed');
      log('info', 'self-test', {
        resolverAnswered: run.resolverAnswered,
        passed: run.verdicts.filter((verdict) => verdict.state === 'passed').length,
        disabled: failed.map((verdict) => verdict.zone),
        inconclusive: run.verdicts.filter((verdict) => verdict.state === 'inconclusive').length,
      });
    },
  });
  await monitor.run();
  monitor.start(config.selfTestIntervalMs);

  const dnsbl = createDnsblEngine({
    resolver,
    zones,
    disabledReason: (zone) => monitor.disabledReason(zone),
    ...(config.spamhausDqsKey ? { spamhausDqsKey: config.spamhausDqsKey } : {}),
  });
  const captcha: CaptchaRule | undefined = config.captcha && {
    verifier: createCaptchaVerifier({
      provider: config.captcha.provider,
      secret: config.captcha.secret,
      ...(config.captcha.verifyUrl ? { verifyUrl: config.captcha.verifyUrl } : {}),
    }),
    siteKey: config.captcha.siteKey,
    freeChecks: config.captcha.freeChecks,
  };
  const renderCard = createCardRenderer(createFontLoader());
  return {
    zones,
    resolver,
    monitor,
    dnsbl,
    store: createMemoryStore(),
    pageAssets: await readPageAssets(),
    cards: createCardCache({ maxBytes: cardCacheBytes, render: renderCard }),
    /** Draws a card nobody asked for, so the first share of a fresh process is not the slow one. */
    warmUpCards: () => renderCard(warmUpSummary),
    ...(captcha ? { captcha } : {}),
    isConfigured: () => zones.length > 0 && monitor.resolverHealthy,
  };
}
