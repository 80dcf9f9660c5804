// The WebAuthn ceremonies on the page, through @simplewebauthn/browser, with the PRF extension
// asked for (a fixed salt: SHA-256 of a purpose label, docs/format.md). The PRF output is taken out
// of the answer here and handed to the caller as an ArrayBuffer to transfer to a crypto worker at
// once; the JSON sent to the server never carries it (stripped below). WebAuthn itself lives only
// on the page's thread, so this is the one place the PRF output passes through.
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { PASSKEY_PRF_SALT } from '../../../workers/index.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { PASSKEY_TEXTS } from '../../lib/userTexts.ts';

/** Where window.PublicKeyCredential is missing, the passkey options are hidden. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && browserSupportsWebAuthn();
}

export interface CeremonyOutcome<Response> {
  /** What goes to the server: the PRF results removed. */
  readonly response: Response;
  /** The PRF output for PASSKEY_PRF_SALT, when the authenticator gave one: transfer it to a worker. */
  readonly prfOutput: ArrayBuffer | null;
  /** Registration: whether the authenticator said it supports PRF (an output may need a get() first). */
  readonly prfEnabled: boolean;
}

const prfInput = () => ({ prf: { eval: { first: PASSKEY_PRF_SALT.slice() } } });

interface PrfResults {
  enabled?: boolean;
  results?: { first?: ArrayBuffer | ArrayBufferView };
}

/** Takes the PRF results out of the extension results (they are never serialised for the server). */
function takePrf<Response extends { clientExtensionResults: object }>(response: Response): CeremonyOutcome<Response> {
  const extensions = response.clientExtensionResults as { prf?: PrfResults };
  const prf = extensions.prf;
  let prfOutput: ArrayBuffer | null = null;
  const first = prf?.results?.first;
  if (first) {
    const view = first instanceof ArrayBuffer ? new Uint8Array(first) : new Uint8Array(first.buffer, first.byteOffset, first.byteLength);
    prfOutput = view.slice().buffer;
    // The browser's copy is not ours to keep: zero it where it lives.
    view.fill(0);
  }
  const { prf: _removed, ...others } = extensions;
  return {
    response: { ...response, clientExtensionResults: { ...others, ...(prf?.enabled !== undefined ? { prf: { enabled: prf.enabled } } : {}) } },
    prfOutput,
    prfEnabled: prf?.enabled === true || prfOutput !== null,
  };
}

function ceremonyFailed(error: unknown): never {
  if (error instanceof UserFacingError) throw error;
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    throw new UserFacingError('passkey-already-on-authenticator', PASSKEY_TEXTS.alreadyOnAuthenticator);
  }
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT') {
    throw new UserFacingError('passkey-not-discoverable', PASSKEY_TEXTS.notDiscoverable);
  }
  // The person closed the prompt, it timed out, or the authenticator refused: nothing was sent.
  throw new UserFacingError('passkey-ceremony-failed', PASSKEY_TEXTS.cancelled);
}

export async function getAssertion(options: Record<string, unknown>): Promise<CeremonyOutcome<AuthenticationResponseJSON>> {
  if (!passkeysSupported()) throw new UserFacingError('passkeys-unsupported', PASSKEY_TEXTS.unsupported);
  const optionsJSON = { ...(options as unknown as PublicKeyCredentialRequestOptionsJSON), extensions: prfInput() } as PublicKeyCredentialRequestOptionsJSON;
  try {
    return takePrf(await startAuthentication({ optionsJSON }));
  } catch (error) {
    ceremonyFailed(error);
  }
}

export async function createCredential(options: Record<string, unknown>): Promise<CeremonyOutcome<RegistrationResponseJSON>> {
  if (!passkeysSupported()) throw new UserFacingError('passkeys-unsupported', PASSKEY_TEXTS.unsupported);
  const optionsJSON = { ...(options as unknown as PublicKeyCredentialCreationOptionsJSON), extensions: prfInput() } as PublicKeyCredentialCreationOptionsJSON;
  try {
    return takePrf(await startRegistration({ optionsJSON }));
  } catch (error) {
    ceremonyFailed(error);
  }
}

/**
 * The PRF output of a credential just created whose authenticator evaluates PRF only at assertion
 * time: one more get() of that credential. Its assertion is not sent anywhere (only the PRF output
 * is used), so its challenge is local random bytes.
 */
export async function prfOutputOf(credentialId: string, rpId: string, transports: string[] | undefined): Promise<ArrayBuffer | null> {
  const challenge = new Uint8Array(32);
  crypto.getRandomValues(challenge);
  const challengeText = btoa(String.fromCharCode(...challenge)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const outcome = await getAssertion({
    challenge: challengeText,
    rpId,
    userVerification: 'required',
    timeout: 120_000,
    allowCredentials: [{ id: credentialId, type: 'public-key', ...(transports ? { transports } : {}) }],
  });
  return outcome.prfOutput;
}
