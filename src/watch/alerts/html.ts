/**
 * HTML's five special characters as entities: an e-mail's HTML part and Telegram's HTML parse
 * mode (which reads `&lt;`, `&gt;`, `&amp;` and `&quot;`) show any text as written.
 */

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character]!);
}
