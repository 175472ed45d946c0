import { ViewHeading } from '../ui';

export function WebhooksView() {
  return <ViewHeading>Webhooks</ViewHeading>;
}

export function WebhookView({ webhookId }: { webhookId: string }) {
  return <ViewHeading>Webhook {webhookId}</ViewHeading>;
}
