// The wire types the features use, re-exported from the API contract (contract/, declared once
// with zod and shared with the server). Nothing is declared here: a field added to the contract
// reaches every screen. The older client names are kept as aliases so the features need not change
// in the same step; new code imports the contract's names from contract/ directly.

export type { User, LoginResponse, TotpSetupResponse as TwoFactorSetupResponse } from '../../contract/auth.ts';
export type {
  LoginBody as LoginRequest,
  LoginCodeBody as OtpLoginRequest,
  ProfileUpdateBody as ProfileUpdateRequest,
  ChangePasswordBody as ChangePasswordRequest,
} from '../../contract/auth.ts';
export type { DetailResponse, MessageResponse, VerifiedResponse } from '../../contract/common.ts';
export type { Folder, FolderPayload, FolderSortKey, SortOrder, FolderListQuery as FolderListParams } from '../../contract/folders.ts';
export type { EncryptedKeyData, PublicKeyResponse } from '../../contract/keys.ts';
export type { UploadFailureItem, UploadLinkStatus, UploadResult, UploadSuccessItem } from '../../contract/upload.ts';
