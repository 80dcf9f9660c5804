// Recognises a unique-constraint failure from either driver, by its error code (never the text).
// A primary key is a unique constraint too (SQLite gives it its own code; PostgreSQL does not).
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
