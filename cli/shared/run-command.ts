// The frame both command-line clients run in: Ctrl-C aborts the run's signal, and every way a run
// can end becomes one line on stderr and the exit status docs/operations.md promises ("Command-line
// upload and fetch"). What differs between upload and fetch is only the wording, given here.
import { CliUsageError, EXIT, GateRefusedError, InsecureHttpError, LinkUnusableError, StateLockedError, TeamUnusableError } from './errors.ts';
import { describeFailure } from './failure-line.ts';

export interface CommandTexts {
  /** The --help text, printed for --help and after a usage error's pointer. */
  readonly usage: string;
  /** Printed after Ctrl-C: what happened to the work in hand and what to do next. */
  readonly interrupted: string;
  /** The line for a refusing gate. */
  refused(error: GateRefusedError): string;
}

async function exitStatusOf(run: (signal: AbortSignal) => Promise<number>, texts: CommandTexts): Promise<number> {
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(new CliUsageError('Interrupted.')));
  try {
    return await run(interrupt.signal);
  } catch (error) {
    if (interrupt.signal.aborted) {
      console.error(`\n${texts.interrupted}`);
      return EXIT.interrupted;
    }
    if (error instanceof CliUsageError) {
      if (error.message) console.error(`Error: ${error.message}\n`);
      console.error(error.message ? 'Run with --help for the options.' : texts.usage);
      return error.message ? EXIT.unusable : EXIT.ok;
    }
    if (error instanceof GateRefusedError) {
      console.error(texts.refused(error));
      return EXIT.refused;
    }
    if (error instanceof LinkUnusableError || error instanceof StateLockedError || error instanceof InsecureHttpError || error instanceof TeamUnusableError) {
      console.error(`Error: ${error.message} [${error.code}]`);
      return EXIT.unusable;
    }
    console.error(`Error: ${describeFailure(error)}`);
    return EXIT.unusable;
  }
}

/** Runs a command to its end and exits the process with its status. */
export function runCommand(run: (signal: AbortSignal) => Promise<number>, texts: CommandTexts): void {
  exitStatusOf(run, texts).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error('Error:', error instanceof Error ? error.message : error);
      process.exit(EXIT.unusable);
    },
  );
}
