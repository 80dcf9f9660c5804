// The link password the create-link dialog suggests (spec section 9): a German word pair, the
// two-digit year and a 3-digit number (100-999), e.g. 'SonneWolke26-418'. Easy to read out on the
// phone; with 50 x 50 words and 900 numbers it has about 21 bits, and the PBKDF2 cost plus the
// server's rate limit on verify-password guard it. The admin may type a longer one.
//
// crypto.getRandomValues is a random source, not a cipher: style rule 1 (no crypto.subtle in UI
// code) does not apply to it.

const FIRST_WORDS = [
  'Sonne', 'Mond', 'Stern', 'Wolke', 'Regen', 'Wind', 'Sturm', 'Blitz', 'Nebel', 'Schnee',
  'Berg', 'Tal', 'Fluss', 'Meer', 'Wald', 'Wiese', 'Feld', 'Insel', 'Quelle', 'Hafen',
  'Apfel', 'Birne', 'Kirsche', 'Pflaume', 'Beere', 'Nuss', 'Linde', 'Eiche', 'Birke', 'Tanne',
  'Adler', 'Falke', 'Fuchs', 'Dachs', 'Biber', 'Otter', 'Luchs', 'Hirsch', 'Reh', 'Igel',
  'Kupfer', 'Silber', 'Gold', 'Kristall', 'Bernstein', 'Marmor', 'Granit', 'Perle', 'Feuer', 'Eis',
] as const;

const SECOND_WORDS = [
  'Turm', 'Burg', 'Haus', 'Hof', 'Garten', 'Bruecke', 'Weg', 'Pfad', 'Tor', 'Mauer',
  'Lampe', 'Glocke', 'Feder', 'Kerze', 'Spiegel', 'Schluessel', 'Kompass', 'Anker', 'Segel', 'Ruder',
  'Blume', 'Rose', 'Tulpe', 'Lilie', 'Nelke', 'Moos', 'Farn', 'Klee', 'Efeu', 'Distel',
  'Wolf', 'Baer', 'Rabe', 'Eule', 'Schwan', 'Kranich', 'Taube', 'Lerche', 'Forelle', 'Hummel',
  'Welle', 'Bucht', 'Klippe', 'Duene', 'Gipfel', 'Schlucht', 'Lichtung', 'Weide', 'Acker', 'Strand',
] as const;

/** Uniform integer in [0, bound) without modulo bias. */
function randomBelow(bound: number, random: (array: Uint32Array<ArrayBuffer>) => Uint32Array): number {
  const limit = Math.floor(0x1_0000_0000 / bound) * bound;
  const buffer = new Uint32Array(1);
  for (;;) {
    const value = random(buffer)[0]!;
    if (value < limit) return value % bound;
  }
}

export interface LinkPasswordOptions {
  now?: Date;
  random?: (array: Uint32Array<ArrayBuffer>) => Uint32Array;
}

export function generateLinkPassword({ now = new Date(), random = (array) => crypto.getRandomValues(array) }: LinkPasswordOptions = {}): string {
  const first = FIRST_WORDS[randomBelow(FIRST_WORDS.length, random)]!;
  const second = SECOND_WORDS[randomBelow(SECOND_WORDS.length, random)]!;
  const year = String(now.getFullYear() % 100).padStart(2, '0');
  const number = 100 + randomBelow(900, random);
  return `${first}${second}${year}-${number}`;
}

/** The shape of a generated password (for tests and for telling generated from typed ones). */
export const GENERATED_LINK_PASSWORD = /^[A-Z][a-z]+[A-Z][a-z]+\d{2}-[1-9]\d{2}$/;

export const LINK_PASSWORD_WORDS = { first: FIRST_WORDS, second: SECOND_WORDS } as const;
