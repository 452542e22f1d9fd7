import type { Config } from './variables.js';

/**
 * What a configuration that starts may still get wrong, said once at start (docs/configuration.md):
 * a line for the operator's log, never a refusal.
 */

export interface StartWarning {
  message: string;
  fields: Record<string, unknown>;
}

/**
 * E-mail alerts whose links would not be https: RFC 8058 §3.1 wants the one-click unsubscribe URI
 * of `List-Unsubscribe` to be https, and every link of an e-mail is under PUBLIC_URL (which
 * SMTP_URL requires: `readConfig` refuses it alone, so only an http PUBLIC_URL is left to warn of).
 */
export function startWarnings(config: Pick<Config, 'publicUrl' | 'watch'>): StartWarning[] {
  if (config.watch.smtpUrl === undefined) return [];
  if (config.publicUrl !== undefined && new URL(config.publicUrl).protocol === 'https:') return [];
  return [
    {
      message:
        'e-mail alerts are on (SMTP_URL) but PUBLIC_URL is not https: their one-click unsubscribe links are not https, as RFC 8058 §3.1 wants; set PUBLIC_URL to the service’s https:// origin',
      fields: { public_url: config.publicUrl ?? null },
    },
  ];
}
