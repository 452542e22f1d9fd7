import type { Severity } from '../reputation/index.js';
import type { Verdict } from '../reputation/index.js';

/** The Open Graph image size, which every social network crops least. */
export const cardWidth = 1200;
export const cardHeight = 630;

export const paddingX = 64;
/** Width of everything between the side paddings. */
export const contentWidth = cardWidth - 2 * paddingX;

export const colours = {
  ink: '#0f172a',
  muted: '#475569',
  faint: '#94a3b8',
  track: '#e2e8f0',
  panel: '#f1f5f9',
  paper: '#ffffff',
};

export const verdictColours: Record<Verdict, string> = {
  good: '#16a34a',
  fair: '#d97706',
  poor: '#dc2626',
  unknown: '#64748b',
};

export const severityColours: Record<Severity, string> = {
  major: '#dc2626',
  minor: '#d97706',
  info: '#0284c7',
};
