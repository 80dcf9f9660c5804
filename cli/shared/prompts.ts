// Questions the commands ask: a password (hidden on a terminal, server/cli-password.ts), an e-mail
// address, a code. On a terminal each is asked on stderr; without one, lines are read from
// standard input in the order asked (a script pipes them), through one reader, so several answers
// can follow each other.
import { createInterface, type Interface } from 'node:readline';
import { readExistingPassword } from '../../server/cli-password.ts';
import { CliUsageError } from './errors.ts';

export class Prompts {
  private lines: AsyncIterator<string> | null = null;
  private reader: Interface | null = null;

  constructor(private readonly stdin: NodeJS.ReadStream = process.stdin) {}

  get interactive(): boolean {
    return this.stdin.isTTY === true;
  }

  /** The next line of standard input (not a terminal). */
  private async nextLine(what: string): Promise<string> {
    if (!this.lines) {
      this.reader = createInterface({ input: this.stdin, crlfDelay: Infinity });
      this.lines = this.reader[Symbol.asyncIterator]();
    }
    const next = await this.lines.next();
    if (next.done) throw new CliUsageError(`Standard input ended before ${what} (pass it as an option, or one line per answer).`);
    return next.value;
  }

  async password(prompt: string): Promise<string> {
    if (!this.interactive) return this.nextLine('the password');
    return readExistingPassword(false, prompt);
  }

  async line(prompt: string, what: string): Promise<string> {
    if (!this.interactive) return (await this.nextLine(what)).trim();
    const reader = createInterface({ input: this.stdin, output: process.stderr });
    try {
      return (await new Promise<string>((resolve) => reader.question(prompt, resolve))).trim();
    } finally {
      reader.close();
    }
  }

  close(): void {
    this.reader?.close();
  }
}
