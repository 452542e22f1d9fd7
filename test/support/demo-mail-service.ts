import type { Ca, Listening } from '../../fixtures/mail-world.js';
import { loadZoneList } from '../../src/reputation/lists/zones.js';
import { startDemoMail } from '../../scripts/demo-mail.js';
import { demoWorld } from '../../scripts/demo-world.js';
import { type TestService, startTestService } from './service.js';

/**
 * The real app over the demo world with its mail servers, as `npm run demo` starts them
 * (scripts/demo-mail.ts: the MX hosts on 127.0.0.2 and 127.0.0.3, the MTA-STS policy on
 * 127.0.0.4, on certificates of `ca`), reached because PROBE_ALLOW_NETWORKS allows 127.0.0.0/8 for the operator's checks.
 * `close` stops the service and the servers.
 */
export async function startDemoMailService(ca: Ca): Promise<TestService> {
  const mail = await startDemoMail(ca);
  const servers: Listening[] = mail.servers;
  const service = await startTestService({
    world: demoWorld(await loadZoneList()),
    // Only the operator's checks reach PROBE_ALLOW_NETWORKS: every POST sends OPERATOR_TOKEN.
    asOperator: true,
    env: {
      PROBE_ALLOW_NETWORKS: '127.0.0.0/8',
      PROBE_SMTP_PORT: String(mail.smtpPort),
      PROBE_HTTPS_PORT: String(mail.httpsPort),
      SMTP_TIMEOUT_MS: '2000',
      // The mail check asks its DNS, probes two MX servers and fetches a policy: room for a busy
      // machine.
      CHECK_DEADLINE_MS: '5000',
    },
  });
  return {
    ...service,
    close: async () => {
      await service.close();
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
