// Parsers for the path parameters of the route table. A bad value is kept as null rather than
// thrown, so the screen can show the spec's own message (e.g. 'Invalid Folder ID').

/** Folder ids are positive integers; anything else is null. */
export function parseFolderId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** Link tokens are opaque URL-safe strings; an empty or oddly shaped one is null. */
export function parseLinkToken(raw: string): string | null {
  return /^[A-Za-z0-9_-]{1,200}$/.test(raw) ? raw : null;
}
