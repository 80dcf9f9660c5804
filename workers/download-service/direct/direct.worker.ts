// The direct-to-disk download worker (directDownload.ts): one per download, ended by the page.
import { isDirectPlan } from './directProtocol.ts';
import { serveDirectDownload } from './directDownload.ts';

self.onmessage = (event: MessageEvent<unknown>) => {
  const [keyPort, statusPort] = event.ports;
  if (isDirectPlan(event.data) && keyPort && statusPort) void serveDirectDownload(event.data, keyPort, statusPort);
};
