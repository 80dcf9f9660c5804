// Gathers what checkpoints say about one account's chain: from the anchor file, where every line
// must be a checkpoint signed by the checkpoint key (anything else is reported: the file was
// tampered with), and from other texts (an export, a saved notification e-mail or webhook body),
// where the checkpoint tokens are picked out and each must be signed. The verifier
// (activity-log.ts: verify) then compares them with the chain.
import { CHECKPOINT_IN_TEXT, parseCheckpoint } from './checkpoint.ts';
import { linesOf } from './anchor-file.ts';

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
}

export async function attestedHeads(checkpointKey: Buffer, userId: number, sources: readonly CheckpointSource[]): Promise<AttestedHeads> {
  const heads: AttestedHeads = { bySeq: new Map(), bad: [], count: 0 };
  for (const source of sources) {
    for await (const line of linesOf(source.file)) {
      const tokens = source.anchor ? (line.text.trim() === '' ? [] : [line.text]) : (line.text.match(CHECKPOINT_IN_TEXT) ?? []);
      for (const token of tokens) {
        const parsed = parseCheckpoint(checkpointKey, token);
        if (!parsed.ok) {
          heads.bad.push({ file: source.file, line: line.number, reason: parsed.reason });
          continue;
        }
        if (parsed.checkpoint.userId !== userId) continue;
        heads.count += 1;
        const hashes = heads.bySeq.get(parsed.checkpoint.seq) ?? new Set<string>();
        hashes.add(parsed.checkpoint.hash);
        heads.bySeq.set(parsed.checkpoint.seq, hashes);
      }
    }
  }
  return heads;
}
