// Reading a password for the admin CLI: hidden typing on a terminal (asked twice), or one line
// from standard input with --password-stdin (for scripts: `echo "$PW" | npm run admin -- ...`).
import { CliUsageError } from './cli-errors.ts';

export async function readPasswordLine(stdin: NodeJS.ReadStream): Promise<string> {
  stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of stdin) {
    text += chunk as string;
    if (text.includes('\n')) break;
  }
  const line = text.split('\n')[0] ?? '';
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function promptHidden(prompt: string, stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): Promise<string> {
  stdout.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (result: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write('\n');
      result();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish(() => resolve(value));
        if (ch === '\u0003') return finish(() => reject(new CliUsageError('Cancelled.')));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The new password, from standard input or typed twice on the terminal. */
export async function readNewPassword(fromStdin: boolean): Promise<string> {
  const { stdin, stdout } = process;
  if (fromStdin) return readPasswordLine(stdin);
  if (!stdin.isTTY) {
    throw new CliUsageError('Standard input is not a terminal: pass the password with --password-stdin.');
  }
  const first = await promptHidden('Password: ', stdin, stdout);
  const second = await promptHidden('Repeat password: ', stdin, stdout);
  if (first !== second) throw new CliUsageError('The passwords do not match.');
  return first;
}

/** A password that already exists (e.g. the one a key backup was made under): asked once; the prompt goes to stderr. */
export async function readExistingPassword(fromStdin: boolean, prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  if (fromStdin) return readPasswordLine(stdin);
  if (!stdin.isTTY) {
    throw new CliUsageError('Standard input is not a terminal: pass the password with --password-stdin.');
  }
  return promptHidden(prompt, stdin, stderr);
}
