// The spec's Upload result (section 3): successful_files and failed_files. The client matches an
// item to its file by path + original_raw_name_from_client (lower-cased, Unicode-normalised, %22
// read as a quote), so both are echoed as the client sent them. The shape is the API contract's.
export type {
  UploadFailureItem as FailedFile,
  UploadResult,
  UploadSuccessItem as SuccessfulFile,
} from '../../contract/upload.ts';

/** The `path` echoed to the client: the relative path as it was sent, "." when none was. */
export function echoedPath(rawPath: string | undefined): string {
  return rawPath === undefined || rawPath === '' ? '.' : rawPath;
}
