// The create payload of contract/download-links.ts with the rule that needs the server's key
// parser: a password link carries exactly one wrapped key per file, a link without password none.
import { z } from 'zod';
import * as contract from '../../../contract/download-links.ts';
import { parseLinkKeys } from '../../download-links/link-keys.ts';

/** Parsed: the contract's fields plus `keys` (null without a password). */
export const createLinkBody = contract.createLinkBody.transform((body, context) => {
  const { password, reencrypted_keys_json: keysJson } = body;
  if (password === null) {
    // Keys of a link without password travel only in the URL fragment, never to the server.
    if (keysJson !== null) {
      context.addIssue({
        code: 'custom',
        path: ['reencrypted_keys_json'],
        message: 'Keys of a link without password belong in the link, not on the server',
      });
      return z.NEVER;
    }
    return { ...body, keys: null };
  }
  if (keysJson === null) {
    context.addIssue({ code: 'custom', path: ['reencrypted_keys_json'], message: 'Wrapped keys are required with a password' });
    return z.NEVER;
  }
  const parsed = parseLinkKeys(keysJson, body.file_ids);
  if (!parsed.ok) {
    context.addIssue({ code: 'custom', path: ['reencrypted_keys_json'], message: parsed.message });
    return z.NEVER;
  }
  return { ...body, keys: parsed.keys };
});
