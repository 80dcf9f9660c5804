/** Vectors exchanged between node (server/crypto) and the browser pool in e2e/crypto.spec.ts. */

export interface FileVector {
  readonly key: string;
  readonly iv: string;
  readonly recordSize: number;
  readonly plaintext: string;
  readonly ciphertext: string;
}

export interface NodeVectors {
  /** Encrypted by node: the browser must decrypt each to `plaintext`. */
  readonly files: FileVector[];
  /** Altered ciphertexts: the browser's download stream must reject each (DownloadError INTEGRITY). */
  readonly tampered: { readonly kind: string; readonly key: string; readonly iv: string; readonly plainSize: number; readonly ciphertext: string }[];
  /** Plaintexts (base64) with record sizes for the browser to encrypt; node decrypts the results. */
  readonly toEncrypt: { readonly plaintext: string; readonly recordSize: number }[];
  /** Key data of scheme 2 (argon2id, the account's block), wrapped by node. */
  readonly privateKey: {
    readonly encryptedPrivateKey: string;
    readonly kdfSalt: string;
    readonly password: string;
    readonly wrappedFileKey: string;
    readonly fileKey: string;
  };
  /** The same key pair's key data of the old scheme 1 (PBKDF2), as the app wrote it before issue 27. */
  readonly privateKeyScheme1: { readonly encryptedPrivateKey: string; readonly kdfSalt: string };
  /** The pinned login-derivation vector of docs/format.md: the browser must derive `authSecret`. */
  readonly account: { readonly password: string; readonly kdfParams: string; readonly authSecret: string };
  /** A password link of the old scheme 1: the browser must still open it. */
  readonly linkScheme1: { readonly password: string; readonly reencryptedKeys: Record<string, string> };
  readonly link: {
    readonly password: string;
    readonly fileKeys: Record<string, string>;
    readonly fragment: string;
    readonly reencryptedKeys: Record<string, string>;
    readonly kdfParams: string;
    readonly verifier: string;
  };
  readonly newKeyPairPassword: string;
  /** The account block the browser wraps its new key pair under (scheme 2). */
  readonly newKeyPairKdfParams: string;
}

export interface BrowserError {
  readonly isCryptoError: boolean;
  readonly code: string | undefined;
  readonly name: string;
}

export interface BrowserVectors {
  readonly decrypted: string[];
  readonly tamperedErrors: { readonly kind: string; readonly error: BrowserError | null }[];
  readonly encrypted: FileVector[];
  readonly privateKey: {
    readonly unwrappedFileKey: string;
    readonly unwrappedWithScheme1: string;
    readonly wrongPasswordError: BrowserError | null;
    readonly wrongKeyError: BrowserError | null;
  };
  readonly authSecret: string;
  readonly generatedKeyPair: { readonly publicKeySpki: string; readonly encryptedPrivateKey: string; readonly kdfSalt: string };
  readonly link: {
    readonly fromFragment: Record<string, string>;
    readonly fromPassword: Record<string, string>;
    readonly fromScheme1Password: Record<string, string>;
    readonly verifierForNodeLink: string;
    readonly wrongPasswordError: BrowserError | null;
    readonly browserFragment: string;
    readonly browserProtection: { readonly reencryptedKeys: Record<string, string>; readonly kdfParams: string; readonly verifier: string };
  };
}
