import { ApiError } from '../../http/index.js';
import type { ArtefactSource } from './artefact-routes.js';
import type { ResultStore } from './results.js';

/**
 * A snapshot tool's stored results as the artefact routes show them (artefact-routes.ts): under
 * `/share/{token}`, immutable, as a result behind a token never changes.
 */

export function resultNotFound(): ApiError {
  return new ApiError('not_found', 'no result under this token (unknown or expired)');
}

export function resultArtefacts(
  tool: ArtefactSource['tool'],
  operations: ArtefactSource['operations'],
  results: ResultStore,
): ArtefactSource {
  return {
    tool,
    param: { name: 'token', description: 'Result token' },
    paths: {
      badge: '/share/{token}/badge.svg',
      card: '/share/{token}/card',
      page: '/share/{token}',
      result: '/{token}',
    },
    operations,
    docs: {
      badge: {
        summary: 'SVG badge of a result (shields style)',
        found: 'SVG badge',
        missing: 'Unknown or expired token: a badge saying so',
      },
      card: { summary: 'PNG card of a result, 1200x630 pixels', found: 'PNG image' },
      page: {
        summary:
          'Share page of a result: the result in words, Open Graph tags, badge embed snippets',
        missing: 'Unknown or expired token',
      },
    },
    async find(token) {
      const stored = await results.load(tool.name, token);
      return stored && { subject: stored.result, cardKey: `${tool.name}:${token}` };
    },
    notFound: resultNotFound,
  };
}
