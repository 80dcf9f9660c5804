// Claims: the one way a repository decides who won a race. Destructive or counted work claims
// first, with one conditional statement (an UPDATE … WHERE the condition still holds, a DELETE …
// RETURNING, an INSERT … ON CONFLICT DO NOTHING), and acts only on what that statement says it
// changed: SQLite runs one writer at a time and PostgreSQL re-checks the condition against the
// row's newest version, so of parallel callers exactly as many win as there were rows.
import type { DeleteResult, InsertResult, Kysely, Transaction, UpdateResult } from 'kysely';
import { codedError } from '../../contract/coded-error.ts';
import type { Database } from './schema.ts';

/** How many rows a write changed (an insert that met its conflict and did nothing: 0). */
export function changedRows(result: UpdateResult | DeleteResult | InsertResult): number {
  if ('numUpdatedRows' in result) return Number(result.numUpdatedRows);
  if ('numDeletedRows' in result) return Number(result.numDeletedRows);
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** Whether the conditional write changed its one row: the caller won the claim. */
export function claimedOne(result: UpdateResult | DeleteResult | InsertResult): boolean {
  return changedRows(result) === 1;
}

/** Thrown by `refuse` to roll the transaction back; never leaves refusableTransaction. */
class TransactionRefused extends codedError('TRANSACTION_REFUSED') {
  constructor(readonly answer: unknown) {
    super('the transaction was refused by its own condition and rolled back');
  }
}

/**
 * Runs `work` in one transaction. A claim inside it that fails calls `refuse(answer)`: everything
 * the transaction wrote so far is rolled back and the call answers `answer`. For work of several
 * writes where a later claim can fail after an earlier one succeeded.
 */
export async function refusableTransaction<Done, Refused>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>, refuse: (answer: Refused) => never) => Promise<Done>,
): Promise<Done | Refused> {
  const refusal = (answer: Refused): never => {
    throw new TransactionRefused(answer);
  };
  try {
    return await db.transaction().execute((trx) => work(trx, refusal));
  } catch (error) {
    if (error instanceof TransactionRefused) return error.answer as Refused;
    throw error;
  }
}

/**
 * Claims each candidate in turn (a sweep lists candidates, then claims them one by one, since
 * another process may take some meanwhile) and returns what the won claims returned, in order.
 */
export async function claimEach<Candidate, Won>(
  candidates: readonly Candidate[],
  claim: (candidate: Candidate) => Promise<Won | undefined>,
): Promise<Won[]> {
  const won: Won[] = [];
  for (const candidate of candidates) {
    const result = await claim(candidate);
    if (result !== undefined) won.push(result);
  }
  return won;
}
