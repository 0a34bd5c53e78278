// Destination tools: list_destinations and push_to_destination (GET /api/destinations,
// POST /api/push/{destinationName}). Pushing needs a tier that can push.
import { Type } from 'typebox';
import * as z from 'zod';
import { Destination, PushResult } from '../contract/destinations.ts';
import { runTool, success, type ToolGroup } from './tool-kit.ts';

const Destinations = Type.Object({ data: Type.Array(Destination) });

export const destinationTools: ToolGroup = (server, { services, caller, log }) => {
  server.registerTool(
    'list_destinations',
    {
      title: 'Push destinations',
      description:
        "The project's push destinations (webhooks), sorted by name. Header values and signing secrets are never shown.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () =>
      runTool(log, 'list_destinations', async () => success(Destinations, await services.destinations.list(caller))),
  );

  server.registerTool(
    'push_to_destination',
    {
      title: 'Push companies to a destination',
      description:
        'Sends the full records of up to 100 Norwegian companies to one of the project’s destinations in a single request. ' +
        'Failed deliveries are reported in errors[]. Free-tier keys cannot push.',
      inputSchema: {
        destinationName: z.string().min(1).max(100),
        orgNumbers: z.array(z.string()).min(1).max(100).describe('9-digit Norwegian organisation numbers'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ destinationName, orgNumbers }) =>
      runTool(log, 'push_to_destination', async () =>
        success(PushResult, await services.push.push(caller, destinationName, orgNumbers)),
      ),
  );
};
