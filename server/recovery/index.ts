// What the node commands share with the offline recover command (cli/fetch writes a download
// link's files exactly as recover writes an export's): decrypting to disk with every check, the
// per-file errors and the one place that words them, safe output paths, and the progress line.
export { decryptToDisk, type DecryptOptions, type EncryptedBlob, type ExpectedFile } from './decrypt-to-disk.ts';
export { errnoCode, FileRecoveryError, type FileRecoveryErrorCode } from './errors.ts';
export { fileFailureReason, printablePath } from './reasons.ts';
export { safeSegments } from './output-path.ts';
export { formatBytes, megabytesPerSecond, ProgressLine } from './progress.ts';
