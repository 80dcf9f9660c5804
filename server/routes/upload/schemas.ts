// The gate bodies of contract/upload.ts as the server parses them: addresses lower-cased after the
// contract's checks, the way the server stores and compares them.
import * as contract from '../../../contract/upload.ts';
import { normalizeEmail } from '../../upload/verification-code.ts';

const uploaderEmail = contract.uploaderEmail.transform(normalizeEmail);

export const requestCodeBody = contract.requestCodeBody.extend({ uploader_email: uploaderEmail });

export const verifyCodeBody = contract.verifyCodeBody.extend({ uploader_email: uploaderEmail });
