// The W3C Reconciliation API v0.2 service for OpenRefine (/api/reconcile/{token}/…, hidden from the
// OpenAPI document), and GET /api/keys/reconcile-url, which hands a key its service URL.
import { Type } from 'typebox';

export const ReconcileParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

const Json = Type.String({ maxLength: 1_000_000 });
const Callback = Type.Optional(Type.String({ pattern: '^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$' }));

export const ReconcileServiceQuery = Type.Object({
  queries: Type.Optional(Json),
  extend: Type.Optional(Json),
  callback: Callback,
});
export const ReconcileCallbackQuery = Type.Object({ callback: Callback });
export const ReconcileBody = Type.Object({ queries: Type.Optional(Json), extend: Type.Optional(Json) });
export const ReconcilePreviewQuery = Type.Object({ id: Type.String({ maxLength: 40 }) });
export const ReconcilePrefixQuery = Type.Object({
  prefix: Type.String({ maxLength: 300 }),
  cursor: Type.Optional(Type.String()),
  callback: Callback,
});
export const ReconcileProposeQuery = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 10 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  callback: Callback,
});

export const ReconcileServiceUrl = Type.Object(
  {
    serviceUrl: Type.String({
      description:
        'Add it in OpenRefine: Reconcile → Start reconciling → Add standard service. It carries a secret token.',
    }),
  },
  { examples: [{ serviceUrl: 'https://api.example.com/api/reconcile/rcn_AbCd1234' + '0'.repeat(32) }] },
);
