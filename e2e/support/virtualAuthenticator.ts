// A WebAuthn authenticator for a page, through Chromium's DevTools protocol: the specs of passkeys
// need one that answers without a person (presence and user verification simulated).
import type { CDPSession, Page } from '@playwright/test';

export interface VirtualAuthenticator {
  cdp: CDPSession;
  id: string;
}

export interface AuthenticatorShape {
  /** Whether it offers the PRF extension, which unlocks keys with a passkey. */
  hasPrf: boolean;
  /** 'internal' is a platform authenticator (one per browser); 'usb' a security key beside it. */
  transport?: 'internal' | 'usb';
}

/** Adds an authenticator to `cdp`'s browser: resident keys, user verified. */
export async function addAuthenticator(cdp: CDPSession, { hasPrf, transport = 'internal' }: AuthenticatorShape): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** A new DevTools session on `page` with WebAuthn on and one authenticator of `shape`. */
export async function virtualAuthenticator(page: Page, shape: AuthenticatorShape): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  return { cdp, id: await addAuthenticator(cdp, shape) };
}
