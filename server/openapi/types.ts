// The shape of the per-operation notes (./operations.ts) the document builder reads.

export interface HeaderNote {
  name: string;
  description: string;
  required?: boolean;
}

export interface TusNotes {
  requestHeaders: HeaderNote[];
  /** The body is `application/offset+octet-stream`: required on PATCH, optional on a creating POST. */
  body?: 'required' | 'optional';
  responses: Record<number, { description: string; headers?: Record<string, string> }>;
}

export interface OpenApiOperationNotes {
  tag: string;
  summary: string;
  /** Error codes the handler raises, by status (401/403/422 of the access checks and schemas are added). */
  errors?: Record<number, string[]>;
  /** Descriptions of path parameters. */
  params?: Record<string, string>;
  /** The body is a form (`true`), or JSON and form alike (`'also'`). */
  form?: true | 'also';
  /** The body is the multipart upload of docs/api.md. */
  multipart?: true;
  /** The upload link's gates apply (grant cookie). */
  gates?: true;
  /** 204 without a body. */
  noContent?: true;
  /** A browser navigation answered 303 See Other: where `Location` points, in words. */
  redirect?: string;
  /** The 200 answer is a byte stream of this type, with these headers. */
  binary?: { mediaType: string | string[]; headers: Record<string, string>; ranges?: true };
  /** The request body is raw bytes of this type. */
  binaryRequest?: string;
  /** The 200 answer is this media type, not described by a schema. */
  rawResponse?: string;
  requestHeaders?: HeaderNote[];
  /** A tus 1.0 request: its own headers and plain-text answers. */
  tus?: TusNotes;
}
