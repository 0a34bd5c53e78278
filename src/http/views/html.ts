// Escaping for server-rendered HTML: every value that is not a literal of ours goes through it.
export const escapeHtml = (s: string | number): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
