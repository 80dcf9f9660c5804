import { useEffect } from 'react';
import { describeApiError } from '../../api/errors.ts';
import { uploadApi } from '../../api/uploadApi.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { forgetAllFiles } from './fileRegistry.ts';
import { linkFailed, linkLoaded, pageOpened } from './uploadStepSlice.ts';

/** Step 0: opens the page for a link and loads the link's status (or fails to step 8). */
export function useUploadLink(linkToken: string | null): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    forgetAllFiles();
    dispatch(pageOpened({ linkToken }));
    if (linkToken === null) return;
    let current = true;
    void dispatch(uploadApi.endpoints.getUploadLinkStatus.initiate(linkToken, { subscribe: false, forceRefetch: true })).then((result) => {
      if (!current) return;
      if (result.data) {
        const status = result.data;
        dispatch(
          linkLoaded({
            title: status.title,
            description: status.description,
            requiresPassword: status.requires_password,
            requiresEmail: status.requires_email,
            hasAllowedEmailsList: status.has_allowed_emails_list,
            performMimeCheck: status.perform_mime_check !== false,
          }),
        );
      } else {
        dispatch(linkFailed({ message: describeApiError(result.error).message }));
      }
    });
    return () => {
      current = false;
    };
  }, [dispatch, linkToken]);
}
