import type { Lang, MessageKey, Translate } from '../i18n/index.js';
import {
  dnswlCategories,
  type DnsblZone,
  type ListResult,
  type ScoreFactor,
  trustLevels,
  trustWords,
} from '../reputation/index.js';
import type { ShareSummary } from './summary.js';

/**
 * A result keeps its texts in English: they are the API's contract (`meaning`, `detail`, `error`,
 * a grade's `label`). A page, card or badge in Russian writes them anew at render time
 * (docs/pages.md#russian): the zone list's meanings from the Russian each carries
 * (assets/dnsbl-zones.json), read by their English text since that is all a stored result holds of
 * them; the texts the engine writes itself (list errors, grades, score factors, DNSWL's categories)
 * by their form, into the catalogs' keys. English is the stored text, unchanged, so a page says
 * what the JSON says.
 */
export interface ResultTexts {
  /** Meanings of the zone list (`; ` between several, as results join them), or engine texts. */
  text(english: string): string;
  /** Why a list that answered no listing says so (a timeout, an error, a list not yet proven). */
  listError(list: ListResult): string;
  factor(factor: ScoreFactor): string;
  /** The summary a card or badge draws, its listings' meanings in the language. */
  summary(summary: ShareSummary): ShareSummary;
}

/** Every meaning of the zone list, English to Russian: return codes, bitmask bits, error codes. */
export type MeaningTable = ReadonlyMap<string, string>;

export function russianMeanings(zones: readonly DnsblZone[]): MeaningTable {
  const table = new Map<string, string>();
  for (const zone of zones) {
    const meanings = [zone.codes, zone.bitmask, zone.errors].flatMap((documented) =>
      Object.values(documented ?? {}),
    );
    for (const { meaning, ru } of meanings) {
      if (ru !== undefined && !table.has(meaning)) table.set(meaning, ru);
    }
  }
  return table;
}

const asStored: ResultTexts = {
  text: (english) => english,
  listError: (list) => list.error ?? '',
  factor: (factor) => factor.detail,
  summary: (summary) => summary,
};

/** HostKarma's grades (src/reputation/lists/grades.ts), by the label the engine gives each. */
const hostKarmaGrades: Record<string, MessageKey> = {
  'white (trusted)': 'grade.white',
  'black (spam source)': 'grade.black',
  'yellow (mixed mail)': 'grade.yellow',
  'brown (mostly spam)': 'grade.brown',
  'NOBL (not to be blocklisted)': 'grade.nobl',
};

const dnswlCategoryOf = new Map(
  Object.entries(dnswlCategories).map(([number, words]) => [words, number]),
);

/**
 * The forms of the texts the engine writes (src/reputation: dnsbl.ts, return-codes.ts, grades.ts,
 * score.ts, domain-check.ts), each with its rewriting; the first that matches wins.
 */
function engineForms(
  t: Translate,
  meanings: (text: string) => string,
): [RegExp, (match: RegExpExecArray) => string | undefined][] {
  const trustOf = (words: string) => trustLevels.find((level) => trustWords(level) === words);
  return [
    [/^no answer in time$/, () => t('status.timeout')],
    [
      /^the list's server answered (\w+)$/,
      ([, status]) => t('detail.serverAnswered', { status: status! }),
    ],
    [
      /^answer (\S+) is outside 127\.0\.0\.0\/8/,
      ([, code]) => t('detail.outsideLoopback', { code: code! }),
    ],
    [/^(\S+): the list refused the query$/, ([, code]) => t('detail.refused', { code: code! })],
    [/^undocumented return code (.+)$/, ([, codes]) => t('detail.undocumented', { codes: codes! })],
    [/^undocumented grade (.+)$/, ([, code]) => t('detail.undocumentedGrade', { code: code! })],
    [/^no grade$/, () => t('detail.noGrade')],
    // A list without a code table lists by RFC 5782 §2.1's convention: `listed (127.0.0.2)`.
    [/^listed \((\S+)\)$/, ([, code]) => `${t('status.listed')} (${code})`],
    // A documented error code: `127.255.255.254: query came through a public/open resolver ...`.
    [/^(127\.[\d.]+): (.+)$/, ([, code, meaning]) => `${code}: ${meanings(meaning!)}`],
    [/^poor reputation L(\d+)$/, ([, level]) => t('grade.poor', { level: level! })],
    [/^neutral reputation$/, () => t('grade.neutral')],
    [/^good reputation H(\d+)$/, ([, level]) => t('grade.good', { level: level! })],
    [/^no PTR record$/, () => t('fcrdns.none')],
    // The sender rules' hold on the score (src/reputation/checks/sender-rules.ts).
    [
      /^held under (\d+), not a good mail sender: (.+)$/,
      ([, score, reasons]) =>
        t('detail.heldUnder', {
          score: score!,
          reasons: reasons!
            .split('; ')
            .map((reason) => heldReason(reason, t))
            .join('; '),
        }),
    ],
    [
      /^no PTR name resolves back to the address \((.*)\)$/,
      ([, ptr]) => t('detail.fcrdnsFail', { ptr: ptr! }),
    ],
    [/^sender IP listed on (.+)$/, ([, lists]) => t('detail.senderListed', { lists: lists! })],
    [/^no SPF record$/, () => t('spf.none')],
    [/^several SPF records \(permerror\)$/, () => t('spf.multiple')],
    [/^permerror: (.*)$/, ([, reason]) => t('detail.spfPermerror', { reason: meanings(reason!) })],
    [/^no DMARC record$/, () => t('dmarc.none')],
    [/^a DMARC record receivers do not apply$/, () => t('dmarc.invalid')],
    // SPF's reasons (src/reputation/spf: spf.ts, spf-record.ts), as a permerror or temperror says.
    [
      /^(\d+) SPF records; there must be one$/,
      ([, count]) => t('spf.reason.count', { count: count! }),
    ],
    [/^(\S+) has no SPF record$/, ([, name]) => t('spf.reason.noRecordAt', { name: name! })],
    [
      /^(\S+) has (\d+) SPF records; there must be one$/,
      ([, name, count]) => t('spf.reason.countAt', { name: name!, count: count! }),
    ],
    [/^include loop: (.+)$/, ([, chain]) => t('spf.reason.loop', { chain: chain! })],
    [
      /^(\S+) has (\d+) MX hosts, over the 10 allowed$/,
      ([, name, count]) => t('spf.reason.mxHosts', { name: name!, count: count! }),
    ],
    [/^more than 2 lookups answered NXDOMAIN or no records$/, () => t('spf.reason.voidLookups')],
    [/^more than 10 DNS-querying terms /, () => t('spf.reason.lookups')],
    [
      /^(\S+) (\w+): no answer within the (\d+) ms deadline$/,
      ([, name, type, ms]) => t('spf.reason.deadline', { name: name!, type: type!, ms: ms! }),
    ],
    [
      /^(\S+) (\w+): DNS timeout$/,
      ([, name, type]) => t('spf.reason.timeout', { name: name!, type: type! }),
    ],
    [
      /^(\S+) (A|AAAA|MX|TXT|PTR): ([A-Z]+)$/,
      ([, name, type, status]) =>
        t('spf.reason.failed', { name: name!, type: type!, status: status! }),
    ],
    [/^syntax error: (.*)$/, ([, reason]) => t('spf.reason.syntax', { reason: meanings(reason!) })],
    [/^not a v=spf1 record$/, () => t('spf.reason.notSpf1')],
    [
      /^invalid (domain-spec|domain name|IPv4 network|IPv6 network) "(.*)"$/,
      ([, what, text]) => t('spf.reason.invalid', { what: what!, text: text! }),
    ],
    [/^invalid CIDR length \/(\d+)$/, ([, digits]) => t('spf.reason.cidr', { digits: digits! })],
    [/^unknown mechanism "(.*)"$/, ([, name]) => t('spf.reason.unknownMechanism', { name: name! })],
    [/^malformed "(.*)" mechanism$/, ([, name]) => t('spf.reason.malformed', { name: name! })],
    [/^invalid modifier value$/, () => t('spf.reason.modifierValue')],
    [/^"(.*)" appears more than once$/, ([, name]) => t('spf.reason.twice', { name: name! })],
    [/^neither a mechanism nor a modifier$/, () => t('spf.reason.neither')],
    // A domain check's notes (domain-check.ts `notesOf`).
    [
      /^Looked up the (\d+) most preferred of (\d+) MX hosts /,
      ([, max, total]) => t('note.mxLimited', { max: max!, total: total! }),
    ],
    [
      /^Lists the first (\d+) of (\d+) sender addresses\.$/,
      ([, max, total]) => t('note.firstSenders', { max: max!, total: total! }),
    ],
    [
      /^Stopped following the domain's records after (\d+) DNS queries;/,
      ([, budget]) => t('note.budgetSpent', { budget: budget! }),
    ],
    [
      /^allowlisted \(([^)]+)\)(?:: (.*))?$/,
      ([, words, entries]) => {
        const trust = trustOf(words!);
        const status = trust
          ? t('status.allowlistedTrust', { trust: t(`trust.${trust}`) })
          : t('status.allowlisted');
        return entries ? `${status}: ${meanings(entries)}` : status;
      },
    ],
    // DNSWL's entries: `email service provider, trust high` (grades.ts `dnswlEntry`).
    [
      /^(.+), trust (none|low|medium|high)$/,
      ([, words, trust]) => {
        const number = dnswlCategoryOf.get(words!) ?? /^category (\d+)$/.exec(words!)?.[1];
        if (number === undefined) return undefined;
        const category =
          number in dnswlCategories
            ? t(`dnswl.category.${number}` as MessageKey)
            : t('dnswl.category', { n: number });
        return t('dnswl.entry', { category, trust: t(`trust.${trust as 'none'}`) });
      },
    ],
  ];
}

/** The texts of results as `lang` writes them; `table` is the zone list's Russian meanings. */
export function resultTexts(lang: Lang, t: Translate, table: MeaningTable): ResultTexts {
  if (lang === 'en') return asStored;
  const forms = engineForms(t, (meanings) => text(meanings));
  /** An engine text rewritten by its form, or undefined when it has none of them. */
  const engine = (text: string): string | undefined => {
    for (const [form, rewrite] of forms) {
      const match = form.exec(text);
      const written = match && rewrite(match);
      if (written) return written;
    }
    const grade = hostKarmaGrades[text];
    return grade && t(grade);
  };
  // Results join several meanings with `; `, and a meaning may hold `; ` itself (IADB's): the
  // longest run of parts the zone list knows is one meaning.
  const text = (english: string): string => {
    const whole = table.get(english) ?? engine(english);
    if (whole !== undefined) return whole;
    const parts = english.split('; ');
    const written: string[] = [];
    for (let start = 0; start < parts.length;) {
      let end = parts.length;
      while (end > start + 1 && !table.has(parts.slice(start, end).join('; '))) end--;
      const part = parts.slice(start, end).join('; ');
      written.push(table.get(part) ?? engine(part) ?? part);
      start = end;
    }
    return written.join('; ');
  };
  return {
    text,
    listError(list) {
      // On hold: the status says it stopped answering; the hold's reason is the operator's.
      if (list.on_hold) return '';
      if (list.status === 'disabled') return t('detail.notProven');
      return text(list.error ?? '');
    },
    factor: (factor) => text(factor.detail),
    summary: (summary) => ({
      ...summary,
      listings: summary.listings.map((listing) =>
        listing.address ? listing : { ...listing, detail: text(listing.detail) },
      ),
    }),
  };
}

/** One reason the sender rules give for holding a score (src/reputation/checks/sender-rules.ts). */
function heldReason(reason: string, t: Translate): string {
  if (reason === 'no PTR record') return t('fcrdns.none');
  if (reason === 'PTR not confirmed forward (FCrDNS)') return t('detail.ptrUnconfirmed');
  const policy = /^policy listing on (.+)$/.exec(reason);
  return policy ? t('detail.policyListing', { list: policy[1]! }) : reason;
}
