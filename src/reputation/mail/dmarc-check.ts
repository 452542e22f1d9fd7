import type { Resolver } from '../../dns/index.js';
import { dmarcDefaults, type DmarcReading, organizationalDomain } from '../checks/index.js';
import {
  type DmarcRecord,
  type MailDmarc,
  maxReportDestinations,
  type ReportDestination,
} from '../results/index.js';
import { authorizesReports, reportAuthorizationName, reportDomainOf } from './dmarc-reports.js';

/**
 * The DMARC record the domain check found (its own or its organisational domain's, RFC 7489
 * §6.6.3) with every tag as the domain check read it (one reading for both tools), and each
 * external report destination asked whether it takes the domain's reports (§7.1).
 */

export async function checkDmarcDetails(
  dns: Resolver,
  domain: string,
  record: DmarcRecord,
  reading: DmarcReading | null,
): Promise<MailDmarc> {
  const organizational = organizationalDomain(domain);
  if (reading === null || record.domain === null) {
    return {
      ...record,
      ...dmarcDefaults(),
      rua: [],
      ruf: [],
      organizational_domain: organizational,
    };
  }
  const {
    valid: _valid,
    errors: _errors,
    warnings: _warnings,
    written: _written,
    ...tags
  } = reading;
  const policyDomain = record.domain;
  const policyOrg = organizationalDomain(policyDomain) ?? policyDomain;
  let asked = 0;
  const destinationOf = async (uri: string): Promise<ReportDestination> => {
    const destination = reportDomainOf(uri);
    if (destination === undefined) {
      return {
        uri,
        domain: '',
        external: false,
        authorized: null,
        detail: 'not a mailto: URI (RFC 7489 §6.2)',
      };
    }
    // §7.1: a destination outside the policy's organisational domain must authorise its reports.
    const external = (organizationalDomain(destination) ?? destination) !== policyOrg;
    if (!external) return { uri, domain: destination, external, authorized: null, detail: null };
    if (asked >= maxReportDestinations) {
      return {
        uri,
        domain: destination,
        external,
        authorized: null,
        detail: `not asked: past ${maxReportDestinations} destinations`,
      };
    }
    asked++;
    const name = reportAuthorizationName(policyDomain, destination);
    const outcome = await dns.query(name, 'TXT');
    if (
      outcome.status === 'answer' ||
      outcome.status === 'nxdomain' ||
      outcome.status === 'nodata'
    ) {
      const authorized = outcome.status === 'answer' && authorizesReports(outcome.records);
      return {
        uri,
        domain: destination,
        external,
        authorized,
        detail: authorized
          ? null
          : `no v=DMARC1 record at ${name}: ${destination} does not take these reports`,
      };
    }
    return {
      uri,
      domain: destination,
      external,
      authorized: null,
      detail: `${name}: no usable DNS answer (${outcome.status})`,
    };
  };
  const [rua, ruf] = await Promise.all([
    Promise.all(tags.rua.map(destinationOf)),
    Promise.all(tags.ruf.map(destinationOf)),
  ]);
  return { ...record, ...tags, rua, ruf, organizational_domain: organizational };
}
