// The gates of an upload link, enforced on the server for every upload request: link password
// (argon2id, rate limited), e-mail verification code (single use, 10 minutes, 5 tries, bound to
// link and address, rate limited), allowed-address list. Passing them is remembered in an upload
// grant (a random token in an HttpOnly cookie, stored hashed); API clients may instead present
// the password and a verified code with each multipart request.
import type { FastifyBaseLogger } from 'fastify';
import { newToken, sha256Hex } from '../auth/tokens.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { Config } from '../config.ts';
import type { AttemptLimiter } from '../limits/attempt-limiter.ts';
import type { AttemptRules } from '../limits/attempt-rules.ts';
import type { UploadLinkFolder, Repositories } from '../db/repositories/index.ts';
import type { UploadGrant } from '../db/repositories/upload-grants.ts';
import type { Mailer } from '../mail/mailer.ts';
import { verificationCodeMail } from './code-mail.ts';
import type { LanguageCode } from '../i18n/intl.ts';
import { UploadError } from './errors.ts';
import {
  emailAllowed,
  missingGate,
  NOTHING_PASSED,
  passwordDigest,
  passwordPassed,
  requiresPassword,
  type PassedGates,
} from './gates.ts';
import {
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  codeMatches,
  hashVerificationCode,
  newCodeSalt,
  newVerificationCode,
} from './verification-code.ts';

export interface UploadAccessDeps {
  repos: Repositories;
  config: Pick<Config, 'upload'>;
  now: () => number;
  mailer: Mailer;
  attempts: { limiter: AttemptLimiter; rules: AttemptRules };
  log: FastifyBaseLogger;
}

/** Credentials an API client sends in the multipart request instead of holding a grant cookie. */
export interface PresentedCredentials {
  linkPassword?: string | undefined;
  /** Lower-cased. */
  uploaderEmail?: string | undefined;
  verificationCode?: string | undefined;
}

/** What passing a gate changed: the grant, and its token (new, or the one presented) for the cookie. */
export interface GrantUpdate {
  grant: UploadGrant;
  token: string;
}

export type UploadAccess = ReturnType<typeof createUploadAccess>;

export function createUploadAccess(deps: UploadAccessDeps) {
  const { repos, config, now, mailer, log } = deps;
  const { limiter, rules } = deps.attempts;

  async function checkPassword(folder: UploadLinkFolder, password: string, ip: string): Promise<void> {
    const attempt = await limiter.reserve(rules.uploadLinkPassword(folder.id, ip));
    if (folder.linkPasswordHash === null) return;
    if (!(await verifyPassword(folder.linkPasswordHash, password))) throw new UploadError('INCORRECT_LINK_PASSWORD');
    await attempt.succeeded();
  }

  /** Verifies a pending code (single use); throws INVALID_CODE for a wrong, used or expired one. */
  async function checkPendingCode(folder: UploadLinkFolder, email: string, code: string, ip: string): Promise<void> {
    const attempt = await limiter.reserve(rules.uploadVerificationCode(folder.id, email, ip));
    // The code's own tries are reserved the same way: counted before the comparison.
    const pending = await repos.verificationCodes.reserveAttempt(folder.id, email, now(), CODE_MAX_ATTEMPTS);
    if (!pending || !codeMatches(code, pending.salt, pending.codeHash)) throw new UploadError('INVALID_CODE');
    if (!(await repos.verificationCodes.markVerified(pending.id, now()))) throw new UploadError('INVALID_CODE');
    await attempt.succeeded();
  }

  async function passedBy(folder: UploadLinkFolder, grantToken: string | undefined): Promise<UploadGrant | undefined> {
    if (!grantToken) return undefined;
    return repos.uploadGrants.findLive(sha256Hex(grantToken), folder.id, now());
  }

  function gatesOf(grant: UploadGrant | undefined): PassedGates {
    return grant ? { passwordDigest: grant.passwordDigest, email: grant.email } : NOTHING_PASSED;
  }

  /** Creates the grant, or records the newly passed gate on the existing one (renewing its lifetime). */
  async function remember(
    folder: UploadLinkFolder,
    existing: { grant: UploadGrant; token: string } | undefined,
    passed: Partial<PassedGates>,
  ): Promise<GrantUpdate> {
    const expiresAt = now() + config.upload.grantTtlMs;
    if (existing) {
      await repos.uploadGrants.update(existing.grant.id, { ...passed, expiresAt });
      return { grant: { ...existing.grant, ...passed, expiresAt }, token: existing.token };
    }
    const token = newToken();
    const created = await repos.uploadGrants.create({
      tokenHash: sha256Hex(token),
      folderId: folder.id,
      passwordDigest: passed.passwordDigest ?? null,
      email: passed.email ?? null,
      expiresAt,
      now: now(),
    });
    return { grant: created, token };
  }

  async function presentedGrant(folder: UploadLinkFolder, grantToken: string | undefined) {
    const grant = await passedBy(folder, grantToken);
    return grant && grantToken ? { grant, token: grantToken } : undefined;
  }

  return {
    gatesOf,
    passedBy,

    /** verify-password: checks the link password and records it on the grant. */
    async verifyPassword(folder: UploadLinkFolder, grantToken: string | undefined, password: string, ip: string) {
      await checkPassword(folder, password, ip);
      return remember(folder, await presentedGrant(folder, grantToken), { passwordDigest: passwordDigest(folder) });
    },

    /** request-code: sends a fresh code to an allowed address (after the password, when there is one). */
    async requestCode(folder: UploadLinkFolder, grantToken: string | undefined, email: string, ip: string, language: LanguageCode = 'en'): Promise<void> {
      // Otherwise anyone holding an ungated link could make the server mail arbitrary addresses.
      if (!folder.requireEmailVerification) throw new UploadError('EMAIL_NOT_REQUIRED');
      const grant = await passedBy(folder, grantToken);
      if (!passwordPassed(folder, gatesOf(grant))) throw new UploadError('LINK_PASSWORD_REQUIRED');
      if (!emailAllowed(folder, email)) throw new UploadError('EMAIL_NOT_ALLOWED');
      await limiter.reserve(rules.uploadCodeRequest(folder.id, email, ip));
      const code = newVerificationCode();
      const salt = newCodeSalt();
      await repos.verificationCodes.replacePending({
        folderId: folder.id,
        email,
        codeHash: hashVerificationCode(code, salt),
        salt,
        expiresAt: now() + CODE_TTL_MS,
        now: now(),
      });
      await mailer.send(verificationCodeMail(email, folder.title, code, language));
      log.info({ folderId: folder.id }, 'upload verification code sent');
    },

    /** verify-code: checks the code (after the password, when there is one) and records the address. */
    async verifyCode(folder: UploadLinkFolder, grantToken: string | undefined, email: string, code: string, ip: string) {
      if (!folder.requireEmailVerification) throw new UploadError('EMAIL_NOT_REQUIRED');
      const existing = await presentedGrant(folder, grantToken);
      if (!passwordPassed(folder, gatesOf(existing?.grant))) throw new UploadError('LINK_PASSWORD_REQUIRED');
      if (!emailAllowed(folder, email)) throw new UploadError('EMAIL_NOT_ALLOWED');
      await checkPendingCode(folder, email, code, ip);
      return remember(folder, existing, { email });
    },

    /**
     * The gate check in front of every upload request: passes with the grant cookie, or with
     * credentials presented in the request (multipart API clients). Returns the verified address.
     * A presented code may be one already verified through verify-code within the grant lifetime
     * (the spec's client sends it again with the upload), or a pending one, which it then uses up.
     */
    async authorize(
      folder: UploadLinkFolder,
      grantToken: string | undefined,
      ip: string,
      presented: PresentedCredentials = {},
    ): Promise<{ email: string | null }> {
      const passed = { ...gatesOf(await passedBy(folder, grantToken)) };
      if (missingGate(folder, passed) === null) return { email: passed.email };

      if (!passwordPassed(folder, passed) && presented.linkPassword !== undefined && requiresPassword(folder)) {
        await checkPassword(folder, presented.linkPassword, ip);
        passed.passwordDigest = passwordDigest(folder);
      }
      if (
        folder.requireEmailVerification &&
        passed.email === null &&
        passwordPassed(folder, passed) &&
        presented.uploaderEmail !== undefined &&
        presented.verificationCode !== undefined
      ) {
        const email = presented.uploaderEmail;
        if (!emailAllowed(folder, email)) throw new UploadError('EMAIL_NOT_ALLOWED');
        const code = presented.verificationCode;
        const verified = await repos.verificationCodes.listVerifiedSince(
          folder.id,
          email,
          now() - config.upload.grantTtlMs,
        );
        if (!verified.some((row) => codeMatches(code, row.salt, row.codeHash))) {
          await checkPendingCode(folder, email, code, ip);
        }
        passed.email = email;
      }
      const missing = missingGate(folder, passed);
      if (missing !== null) throw new UploadError(missing);
      return { email: passed.email };
    },
  };
}
