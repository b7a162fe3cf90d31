/** The small HTML pages the sandbox payment processor serves (store checkout, onboarding, subscriptions). */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** No script, styles inline only, forms post to us only, never framed. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

export function sandboxPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}
.note{color:#666;font-size:.9rem}button{font-size:1.1rem;padding:.6rem 1.6rem;cursor:pointer}</style></head>
<body>${body}<p class="note">Sandbox payment processor: no real money moves.</p></body></html>`;
}
