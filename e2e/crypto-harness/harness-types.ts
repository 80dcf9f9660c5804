/** What the harness page exposes as window.cryptoHarness (shared by the page, the spec and the bench). */

export interface EncryptRunOptions {
  /** Hash the produced ciphertext in the page (verification only; costs main-thread time). */
  readonly hashCiphertext?: boolean;
  /** Pipe the ciphertext straight into the download's decrypting stream and hash the plaintext that comes out. */
  readonly roundTrip?: boolean;
  /** Return each file's raw key (base64) so node can reproduce the ciphertext. Tests only. */
  readonly exportKeys?: boolean;
  readonly hashPlacement?: 'auto' | 'same-worker' | 'other-worker';
  /** Files streamed at once (default: all of them): the upload engine streams LARGE_FILES_AT_ONCE. */
  readonly atOnce?: number;
}

export interface EncryptedFileResult {
  readonly name: string;
  readonly size: number;
  readonly encryptedLength: number;
  readonly sha256: string;
  readonly iv: string;
  readonly key?: string;
  readonly ciphertextSha256?: string;
  readonly roundTripSha256?: string;
}

export interface EncryptRunResult {
  readonly seconds: number;
  readonly plainBytes: number;
  readonly files: EncryptedFileResult[];
}

export interface DecryptRunResult {
  readonly seconds: number;
  readonly plainBytes: number;
  readonly plaintextSha256?: string;
}

export interface HarnessError {
  readonly error: { readonly name: string; readonly code?: string; readonly message: string; readonly isCryptoError: boolean };
}

export interface RangeResult {
  readonly start: number;
  readonly end: number;
  readonly sha256: string;
}

export interface RateSample {
  readonly bytes: number;
  readonly seconds: number;
}

export interface SmallFileDigestRow {
  readonly bytes: number;
  readonly oneShotMBps: number;
  readonly hashWasmMBps: number;
}

/** One measurement of the limits worker (run alone, so the browser's CPU time can be attributed to it). */
export type LimitsMeasurement =
  | { readonly kind: 'aes'; readonly mode: 'encrypt' | 'decrypt'; readonly callBytes: number; readonly totalBytes: number }
  | { readonly kind: 'sha'; readonly updateBytes: number; readonly totalBytes: number }
  | { readonly kind: 'read' };

export interface CryptoHarness {
  ready(): Promise<{ poolSize: number }>;
  encryptFiles(options: EncryptRunOptions): Promise<EncryptRunResult | HarnessError>;
  /** Decrypts the picked ciphertext file through the download path; `plainSize` as a file record states it. */
  decryptFile(key: string, iv: string, options: { hashPlaintext: boolean; plainSize?: number }): Promise<DecryptRunResult | HarnessError>;
  readRanges(ranges: readonly [number, number][]): Promise<{ key: string; iv: string; ranges: RangeResult[] } | HarnessError>;
  /** Runs one limits measurement in the limits worker ('read' reads the first picked file). */
  measureLimit(measurement: LimitsMeasurement): Promise<RateSample>;
  smallFileDigests(): Promise<SmallFileDigestRow[]>;
  runVectors(input: unknown): Promise<unknown>;
}
