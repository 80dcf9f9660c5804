// Gathers what checkpoints say about one account's chain: from the anchor file, where every line
// must be a checkpoint signed by the checkpoint key (anything else is reported: the file was
// tampered with), and from other texts (an export, a saved notification e-mail or webhook body),
// where the checkpoint tokens are picked out and each must be signed. The verifier
// (activity-log.ts: verify) then compares them with the chain.
import { CHECKPOINT_IN_TEXT, parseCheckpoint } from './checkpoint.ts';
import { linesOf } from './anchor-file.ts';

/** Joined quoted-printable lines longer than this are scanned as they are (no e-mail line is near it). */
const MAX_JOINED = 64 * 1024;

export interface CheckpointSource {
  file: string;
  /** true: the anchor file (every non-empty line is a checkpoint); false: checkpoints inside other text. */
  anchor: boolean;
}

export interface BadCheckpointLine {
  file: string;
  line: number;
  reason: 'malformed' | 'bad-signature';
}

export interface AttestedHeads {
  /** seq -> the hashes signed checkpoints give for that entry of the account (more than one: rewritten). */
  bySeq: Map<number, Set<string>>;
  bad: BadCheckpointLine[];
  /** How many signed checkpoints of the account were read. */
  count: number;
  /** The highest seq a signed checkpoint of the account attests to (0: none). */
  newestSeq: number;
}

export async function attestedHeads(checkpointKey: Buffer, userId: number, sources: readonly CheckpointSource[]): Promise<AttestedHeads> {
  const heads: AttestedHeads = { bySeq: new Map(), bad: [], count: 0, newestSeq: 0 };
  const take = (file: string, line: number, token: string) => {
    const parsed = parseCheckpoint(checkpointKey, token);
    if (!parsed.ok) {
      heads.bad.push({ file, line, reason: parsed.reason });
      return;
    }
    if (parsed.checkpoint.userId !== userId) return;
    heads.count += 1;
    heads.newestSeq = Math.max(heads.newestSeq, parsed.checkpoint.seq);
    const hashes = heads.bySeq.get(parsed.checkpoint.seq) ?? new Set<string>();
    hashes.add(parsed.checkpoint.hash);
    heads.bySeq.set(parsed.checkpoint.seq, hashes);
  };
  for (const source of sources) {
    if (source.anchor) {
      for await (const line of linesOf(source.file)) if (line.text.trim() !== '') take(source.file, line.number, line.text);
      continue;
    }
    // A saved e-mail is quoted-printable: a line ending in "=" goes on in the next one, and a token
    // is longer than such a line may be. Tokens hold no "=", so joining lines cannot make one.
    let carried = { text: '', number: 0 };
    const scan = (text: string, number: number) => {
      for (const token of text.match(CHECKPOINT_IN_TEXT) ?? []) take(source.file, number, token);
    };
    for await (const line of linesOf(source.file)) {
      const text = carried.text + line.text;
      const number = carried.text === '' ? line.number : carried.number;
      carried = { text: '', number: 0 };
      if (text.endsWith('=') && text.length < MAX_JOINED) carried = { text: text.slice(0, -1), number };
      else scan(text, number);
    }
    scan(carried.text, carried.number);
  }
  return heads;
}
