// Endpoints of docs/api.md "Webhooks": the signed-in admin's webhook, its deliveries, a test event.
import type { WebhookBody, WebhookResponse } from '../../contract/webhooks.ts';
import { baseApi } from './baseApi.ts';

const WEBHOOK = { type: 'Webhook', id: 'ME' } as const;

export const webhooksApi = baseApi.enhanceEndpoints({ addTagTypes: ['Webhook'] }).injectEndpoints({
  endpoints: (build) => ({
    getWebhook: build.query<WebhookResponse, void>({
      query: () => '/auth/webhook',
      providesTags: [WEBHOOK],
    }),
    saveWebhook: build.mutation<WebhookResponse, WebhookBody>({
      query: (body) => ({ url: '/auth/webhook', method: 'PUT', body }),
      invalidatesTags: [WEBHOOK],
    }),
    deleteWebhook: build.mutation<void, void>({
      query: () => ({ url: '/auth/webhook', method: 'DELETE' }),
      invalidatesTags: [WEBHOOK],
    }),
    sendTestEvent: build.mutation<{ delivery_id: number }, void>({
      query: () => ({ url: '/auth/webhook/test', method: 'POST' }),
      invalidatesTags: [WEBHOOK],
    }),
  }),
});

export const { useGetWebhookQuery, useSaveWebhookMutation, useDeleteWebhookMutation, useSendTestEventMutation } = webhooksApi;
