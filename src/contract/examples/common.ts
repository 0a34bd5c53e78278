// Shared by the other example files: the example organisation number and timestamp, paging and
// the error body.

export const ORG = '923609016';
export const AT = '2026-04-20T12:34:56.000Z';

export const NEXT_CURSOR_EXAMPLE = 'eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8';

export function pageExample<T>(item: T) {
  return { data: [item], nextCursor: NEXT_CURSOR_EXAMPLE, hasMore: true };
}

export const ERROR_EXAMPLE = {
  error: 'Invalid request',
  code: 'validation_failed',
  details: [{ path: 'params.orgNumber', message: 'must be 9 digits with a valid check digit' }],
  requestId: '6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f',
  docs: 'http://localhost:3000/errors#validation_failed',
};
